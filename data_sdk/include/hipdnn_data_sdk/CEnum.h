#ifndef HIPDNN_DATA_SDK_C_ENUM_H
#define HIPDNN_DATA_SDK_C_ENUM_H

/* The base of the C API's enums: `typedef enum HIPDNN_C_ENUM_BASE { ... } hipdnnX_t;`.
   A C caller may pass any int where the API declares an enum (the API rejects unknown values with
   a status). In C++, an enum without a fixed underlying type holds only the values of its
   enumerators' bit range, so reading such an argument would be undefined behaviour before any
   check could run; with int as the fixed underlying type every int is a value, as in C. The size
   and the calling convention stay those of int. */
#ifdef __cplusplus
#define HIPDNN_C_ENUM_BASE : int
#else
#define HIPDNN_C_ENUM_BASE
#endif

#endif /* HIPDNN_DATA_SDK_C_ENUM_H */
