# The C API from an installed gameplan (the prefix made by the consumer.install test):
#   1. `pkg-config --cflags --libs gameplan-c`: compile tests/c/c_api_test.c as C99 with the C compiler
#      alone (no C++ compiler, no C++ flags) and run it;
#   2. find_package(gameplan COMPONENTS c) in a small C project, built and run.
# Variables: SOURCE, WORK_DIR (holding prefix/), LIBDIR, CC, GENERATOR.
cmake_minimum_required(VERSION 3.25)
set(prefix ${WORK_DIR}/prefix)
set(work ${WORK_DIR}/c_api)
file(REMOVE_RECURSE ${work})
file(MAKE_DIRECTORY ${work})

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(rc)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

find_program(PKG_CONFIG pkg-config REQUIRED)
set(ENV{PKG_CONFIG_PATH} ${prefix}/${LIBDIR}/pkgconfig)
run("pkg-config gameplan-c" ${PKG_CONFIG} --cflags --libs gameplan-c)
string(STRIP "${run_output}" flags)
if(NOT flags MATCHES "-lgameplan_c")
  message(FATAL_ERROR "pkg-config gameplan-c does not name the library: ${flags}")
endif()
separate_arguments(flag_list UNIX_COMMAND "${flags}")
run("compiling the C test against the installed library"
    ${CC} -std=c99 -Wall -Wextra -Wpedantic -Werror ${SOURCE}/tests/c/c_api_test.c ${flag_list} -lm
    -Wl,-rpath,${prefix}/${LIBDIR} -o ${work}/c_api_test)
run("running the C test" ${work}/c_api_test ${SOURCE})
message("${run_output}")

file(WRITE ${work}/project/CMakeLists.txt [=[
cmake_minimum_required(VERSION 3.25)
project(c_consumer LANGUAGES C)
find_package(gameplan 0.1 REQUIRED COMPONENTS c)
add_executable(c_consumer main.c)
target_link_libraries(c_consumer PRIVATE gameplan::c)
]=])
file(WRITE ${work}/project/main.c [=[
#include <gameplan/c/gameplan.h>
#include <stdio.h>
int main(void) {
    gameplan_map* map = NULL;
    gameplan_pathfinder* finder = NULL;
    gameplan_path_result r;
    gameplan_point from = {0, 0}, to = {3, 4};
    if (gameplan_map_create(8, 8, 1, &map) != GAMEPLAN_OK || gameplan_pathfinder_create(GAMEPLAN_ASTAR, &finder) != GAMEPLAN_OK ||
        gameplan_find_path(finder, map, from, to, NULL, &r) != GAMEPLAN_OK) {
        fprintf(stderr, "%s\n", gameplan_last_error());
        return 1;
    }
    printf("%s %zu\n", gameplan_status_name(r.status), r.cell_count);
    gameplan_pathfinder_destroy(finder);
    gameplan_map_destroy(map);
    return r.status == GAMEPLAN_STATUS_FOUND && r.cell_count == 5 ? 0 : 1; /* 3 diagonal + 1 straight steps */
}
]=])
run("configuring the find_package(gameplan COMPONENTS c) project" ${CMAKE_COMMAND} -S ${work}/project -B ${work}/build
    -G ${GENERATOR} -DCMAKE_C_COMPILER=${CC} -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release)
run("building it" ${CMAKE_COMMAND} --build ${work}/build)
run("running it" ${work}/build/c_consumer)
message("find_package(gameplan COMPONENTS c): ${run_output}")
