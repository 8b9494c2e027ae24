# The sanitizer tree: this source tree configured again in build/sanitize
# with clang and PM_SANITIZE=ON (the engine, the command line, the non-GUI
# tests and the fuzz target under AddressSanitizer and UndefinedBehavior-
# Sanitizer), built with this tree (`cmake --build build`) and run by its
# CTest: each test again as asan.<name>, and fuzz_project for 60 s.
# See docs/testing.md.
option(PM_SANITIZER_TESTS "Build the sanitizer tree (clang) and run its tests and a short fuzz session" ON)
if(NOT PM_SANITIZER_TESTS)
  return()
endif()
find_program(PM_CLANGXX NAMES clang++-14 clang++)
if(NOT PM_CLANGXX)
  message(FATAL_ERROR "The sanitizer tests need clang++ and libclang-rt-14-dev (packaging/install-deps.sh); "
                      "-DPM_SANITIZER_TESTS=OFF builds without them")
endif()

include(ExternalProject)
set(PM_SANITIZER_DIR ${CMAKE_BINARY_DIR}/sanitize)
ExternalProject_Add(sanitizer_tree
  SOURCE_DIR ${CMAKE_SOURCE_DIR}
  BINARY_DIR ${PM_SANITIZER_DIR}
  CMAKE_ARGS -DPM_SANITIZE=ON -DPM_SANITIZER_TESTS=OFF -DPM_WITH_MPI=OFF -DCMAKE_CXX_COMPILER=${PM_CLANGXX}
             -DCMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER}
             -DPM_REPORT_PROGRAM=$<TARGET_FILE:pneumech-report>
  CMAKE_CACHE_ARGS -DPM_SANITIZER_ONLY:STRING=${PM_SANITIZER_ONLY}
  INSTALL_COMMAND ""
  BUILD_ALWAYS ON  # its own make decides what is out of date
  DEPENDS pneumech-report)

# halt_on_error: a report fails the test. detect_leaks is ASan's default on
# Linux; the suppressions name leaks of the libraries we link, not ours.
# QTEST_FUNCTION_TIMEOUT: Qt Test's 300 s per test function is too short for
# the longest mechanics tests under the sanitizers on 2 busy cores.
set(PM_SANITIZER_ENV
    "QTEST_FUNCTION_TIMEOUT=1200000"
    "ASAN_OPTIONS=detect_leaks=1"
    "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1"
    "LSAN_OPTIONS=suppressions=${CMAKE_SOURCE_DIR}/tests/fuzz/lsan.supp:print_suppressions=0")

foreach(src ${PM_TESTS})
  get_filename_component(name ${src} NAME_WE)
  pm_sanitized_test(${name} keep)
  if(NOT keep)
    continue()
  endif()
  add_test(NAME asan.${name} COMMAND ${PM_SANITIZER_DIR}/bin/${name})
  set_tests_properties(asan.${name} PROPERTIES
                       ENVIRONMENT "QT_QPA_PLATFORM=offscreen;PM_SOURCE_DIR=${CMAKE_SOURCE_DIR};${PM_SANITIZER_ENV}"
                       TIMEOUT 1200 LABELS sanitizer)
endforeach()

# A bounded fuzz session from the examples, the seeds and the inputs it once
# failed on; new inputs go to build/sanitize/fuzz-corpus, a failing one to
# build/sanitize/fuzz-artifacts/ (with a line saying which).
file(MAKE_DIRECTORY ${PM_SANITIZER_DIR}/fuzz-corpus ${PM_SANITIZER_DIR}/fuzz-artifacts)
set(PM_FUZZ_SECONDS 60 CACHE STRING "Seconds of fuzzing in CTest's fuzz_project")
add_test(NAME fuzz_project
         COMMAND ${PM_SANITIZER_DIR}/bin/fuzz_project -max_total_time=${PM_FUZZ_SECONDS} -timeout=30
                 -rss_limit_mb=2560 -print_final_stats=1
                 -dict=${CMAKE_SOURCE_DIR}/tests/fuzz/project.dict -artifact_prefix=${PM_SANITIZER_DIR}/fuzz-artifacts/
                 ${PM_SANITIZER_DIR}/fuzz-corpus ${CMAKE_SOURCE_DIR}/projects ${CMAKE_SOURCE_DIR}/tests/fuzz/seeds
                 ${CMAKE_SOURCE_DIR}/tests/fuzz/regressions)
set_tests_properties(fuzz_project PROPERTIES ENVIRONMENT "${PM_SANITIZER_ENV}"
                     WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}/projects  # where data.file finds scripts
                     TIMEOUT 600 LABELS sanitizer)
