# GPU plugins build whenever the CUDA toolkit with cuDNN is present.
set(HIPDNN_HAVE_CUDA OFF)
if(HIPDNN_BUILD_GPU_PLUGINS)
    if(NOT CUDAToolkit_ROOT AND EXISTS /usr/local/cuda)
        set(CUDAToolkit_ROOT /usr/local/cuda)
    endif()
    # Debian 12's CMake 3.25.1 FindCUDAToolkit sets a DEPRECATION property on CUDA::nvToolsExt
    # whenever the project requires CMake >= 3.25, without checking that the target exists;
    # CUDA 13 ships no nvToolsExt, so configure fails ("set_property could not find TARGET
    # CUDA::nvToolsExt"). Ask the module as a 3.24 project would (we do not use nvToolsExt).
    set(hipdnn_saved_minimum_version ${CMAKE_MINIMUM_REQUIRED_VERSION})
    set(CMAKE_MINIMUM_REQUIRED_VERSION 3.24)
    find_package(CUDAToolkit QUIET)
    set(CMAKE_MINIMUM_REQUIRED_VERSION ${hipdnn_saved_minimum_version})
    unset(hipdnn_saved_minimum_version)
    find_path(HIPDNN_CUDNN_INCLUDE_DIR cudnn.h HINTS ${CUDAToolkit_INCLUDE_DIRS} /usr/local/cuda/include)
    find_library(HIPDNN_CUDNN_LIBRARY cudnn HINTS ${CUDAToolkit_LIBRARY_DIR} /usr/local/cuda/lib64)
    if(CUDAToolkit_FOUND AND HIPDNN_CUDNN_INCLUDE_DIR AND HIPDNN_CUDNN_LIBRARY)
        set(HIPDNN_HAVE_CUDA ON)
        message(STATUS "hipdnn: CUDA ${CUDAToolkit_VERSION} with cuDNN found; building the GPU plugins")
    else()
        message(STATUS "hipdnn: CUDA toolkit with cuDNN not found; skipping the GPU plugins")
    endif()
else()
    message(STATUS "hipdnn: GPU plugins disabled (HIPDNN_BUILD_GPU_PLUGINS=OFF)")
endif()
