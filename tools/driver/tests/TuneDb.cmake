# `hipdnn-driver tune` and `hipdnn-driver db` end to end, in a scratch HIPDNN_CACHE_DIR under
# ${WORK}: tune a batch, show it, merge two databases that disagree (the faster record wins and
# says where it came from), prune a stale record and a malformed line, export; then hostile input.
# With -DCONCURRENT=8: that many tune processes write one database at once, and every record
# survives intact.
set(cache ${WORK}/cache)
set(database ${cache}/tuning.jsonl)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(ENV{HIPDNN_CACHE_DIR} ${cache})
unset(ENV{HIPDNN_DISABLE_CACHE})

# Runs the driver; fails unless it exits with `expected_exit` and its output (newlines folded)
# matches `pattern`. Leaves the output in `driven`.
function(drive expected_exit pattern)
    execute_process(COMMAND ${DRIVER} ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
    set(text "${out}${err}")
    message("$ hipdnn-driver ${ARGN}\n${text}")
    string(REPLACE "\n" " " flat "${text}")
    if(NOT "${status}" STREQUAL "${expected_exit}")
        message(FATAL_ERROR "hipdnn-driver ${ARGN}: exit status ${status}, expected ${expected_exit}")
    endif()
    if(NOT flat MATCHES "${pattern}")
        message(FATAL_ERROR "hipdnn-driver ${ARGN}: output does not match: ${pattern}")
    endif()
    set(driven "${out}" PARENT_SCOPE)
endfunction()

function(expect_count text pattern expected what)
    string(REGEX MATCHALL "${pattern}" found "${text}")
    list(LENGTH found count)
    if(NOT count EQUAL expected)
        message(FATAL_ERROR "${what}: ${count}, expected ${expected}")
    endif()
endfunction()

if(CONCURRENT)
    # One problem per process, each its own graph: a lost or torn write shows as a missing record.
    set(commands)
    foreach(index RANGE 1 ${CONCURRENT})
        math(EXPR m "8 + ${index}")
        file(WRITE ${WORK}/tune${index}.batch "matmul -b 1 -m ${m} -n 8 -k 8\n")
        # Each writes to its own file: the commands of one execute_process form a pipeline, and a
        # process writing into the pipe of one that already exited would die of SIGPIPE.
        list(APPEND commands COMMAND sh -c
             "'${DRIVER}' tune '${WORK}/tune${index}.batch' --iters 3 --warmup 1 > '${WORK}/tune${index}.out' 2>&1")
    endforeach()
    # The commands of one execute_process run at once.
    execute_process(${commands} RESULTS_VARIABLE statuses OUTPUT_VARIABLE out ERROR_VARIABLE err)
    foreach(index RANGE 1 ${CONCURRENT})
        file(READ ${WORK}/tune${index}.out text)
        message("${text}")
        if(NOT text MATCHES "1 of 1 problem\\(s\\) recorded")
            message(FATAL_ERROR "tune process ${index} did not record its problem")
        endif()
    endforeach()
    foreach(status IN LISTS statuses)
        if(NOT status EQUAL 0)
            message(FATAL_ERROR "a tune process exited with ${statuses}")
        endif()
    endforeach()
    drive(0 "${database}: ${CONCURRENT} record\\(s\\)" db show)
    expect_count("${driven}" "\"tool\":\"hipdnn-driver tune\"" ${CONCURRENT} "records written by tune")
    file(GLOB leftovers ${cache}/tuning.jsonl.tmp.*)
    if(leftovers)
        message(FATAL_ERROR "temporary files left behind: ${leftovers}")
    endif()
    return()
endif()

# Tune: every engine timed, the fastest recorded with its runner-up.
drive(0 "RECORDED [A-Z_]+ median .* ms, runner-up [A-Z_]+ .* ms.*2 of 2 problem\\(s\\) recorded"
      tune ${DATA}/tune.batch --iters 3 --warmup 1)
expect_count("${driven}" "TIMED CPU_REFERENCE_ENGINE median" 2 "problems timed on CPU_REFERENCE_ENGINE")
expect_count("${driven}" "TIMED ONEDNN_ENGINE median" 2 "problems timed on ONEDNN_ENGINE")
drive(0 "# ${database}: 2 record\\(s\\)" db show)
expect_count("${driven}" "\"tool\":\"hipdnn-driver tune\"" 2 "records written by tune")
expect_count("${driven}" "\"margin_ms\":[0-9]" 2 "records with a margin")
# The first record line (a device fingerprint holds ';', so no CMake list).
string(REGEX MATCH "{[^\n]*}" first "${driven}")

# Merge: a.jsonl holds a slower copy of the first record, b.jsonl a faster one and a new graph.
string(REGEX REPLACE "\"median_ms\":[^,}]*" "\"median_ms\":1000000" slower "${first}")
string(REGEX REPLACE "\"tool\":\"[^\"]*\"" "\"tool\":\"site-a\"" slower "${slower}")
string(REGEX REPLACE "\"median_ms\":[^,}]*" "\"median_ms\":0" faster "${first}")
string(REGEX REPLACE "\"tool\":\"[^\"]*\"" "\"tool\":\"site-b\"" faster "${faster}")
string(REGEX REPLACE "\"graph\":\"[^\"]*\"" "\"graph\":\"feedfacefeedface\"" other "${faster}")
file(WRITE ${WORK}/a.jsonl "${slower}\n")
file(WRITE ${WORK}/b.jsonl "${faster}\n${other}\n")
drive(0 "merged 2 record\\(s\\) from 2 file\\(s\\) into ${database}" db merge ${WORK}/a.jsonl ${WORK}/b.jsonl)
drive(0 "3 record\\(s\\)" db show)
expect_count("${driven}" "\"tool\":\"site-a\"" 0 "records of the slower database")
expect_count("${driven}" "\"provenance\":\"b.jsonl\",\"tool\":\"site-b\"" 2 "records of b.jsonl naming it")
expect_count("${driven}" "\"tool\":\"hipdnn-driver tune\"" 1 "tuned records kept")

# Prune: a record of a plugin version nothing loads and a malformed line; show refuses the file
# until then, naming the line.
string(REGEX REPLACE "\"plugin_version\":\"[^\"]*\"" "\"plugin_version\":\"0.0.0-gone\"" stale "${other}")
string(REGEX REPLACE "\"graph\":\"[^\"]*\"" "\"graph\":\"deaddeaddeaddead\"" stale "${stale}")
file(APPEND ${database} "${stale}\n{\"graph\":\"truncated\n")
drive(1 "tuning.jsonl line 5: " db show)
drive(0 "pruned 2 record\\(s\\) from ${database}" db prune --device cpu)
drive(0 "3 record\\(s\\)" db show)
expect_count("${driven}" "0.0.0-gone" 0 "stale records")

# Export, and the export reads back.
drive(0 "exported 3 record\\(s\\) of ${database} to ${WORK}/exported.jsonl" db export ${WORK}/exported.jsonl)
drive(0 "# ${WORK}/exported.jsonl: 3 record\\(s\\)" db show ${WORK}/exported.jsonl)

# Hostile input: the file and the line are named; nothing changes.
file(WRITE ${WORK}/corrupt.jsonl "${faster}\n{\"graph\":\n")
drive(1 "corrupt.jsonl line 2: " db merge ${WORK}/corrupt.jsonl)
drive(1 "missing.jsonl does not exist" db merge ${WORK}/missing.jsonl)
drive(1 "missing.jsonl does not exist" db show ${WORK}/missing.jsonl)
drive(1 "the directory ${WORK}/no/such does not exist" db export ${WORK}/no/such/out.jsonl)
drive(0 "3 record\\(s\\)" db show)
drive(2 "frobnicate" db frobnicate)
drive(2 "subcommand" db)
drive(2 "db merge.*files.*required|files is required" db merge)
drive(2 "missing.batch" tune ${WORK}/missing.batch)
set(ENV{HIPDNN_DISABLE_CACHE} 1)
drive(1 "NOT_SUPPORTED.*tuning database is off" db show)
