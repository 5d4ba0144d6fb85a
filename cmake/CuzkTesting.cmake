# cuzk_add_test(NAME SOURCES a.cpp b.cpp LIBS lib...): one GoogleTest binary, each test case
# registered with ctest (so `ctest -j` spreads them over the cores).
function(cuzk_add_test name)
  cmake_parse_arguments(T "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE ${T_LIBS} cuzk_options GTest::gtest GTest::gtest_main)
  target_compile_definitions(${name} PRIVATE
    CUZK_FIXTURES_DIR="${CUZK_FIXTURES_DIR}" CUZK_TESTDATA_DIR="${PROJECT_SOURCE_DIR}/testdata")
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/tests)
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60)
endfunction()
