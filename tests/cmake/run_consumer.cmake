# Consumer tests: a downstream project (tests/cmake/consumer) uses gameplan the ways the README shows.
#   MODE=install            installs the already-built tree BUILD_DIR into WORK_DIR/prefix (no rebuild)
#   MODE=find_package       find_package(gameplan COMPONENTS io) from that prefix; core and io consumers
#   MODE=find_package_core  find_package(gameplan) with libpng and nlohmann-json made unfindable
#   MODE=pkg_config         `pkg-config --cflags --libs gameplan[-io]` from that prefix, compile and run
#   MODE=subdirectory       add_subdirectory(gameplan) (developer parts off): configures, compiles the consumer's sources
#   MODE=fetchcontent       FetchContent with GAMEPLAN_IO=OFF and no libpng / nlohmann-json: configures, compiles the core consumer
# Other variables: SOURCE (gameplan checkout), WORK_DIR, CXX (compiler), LAUNCHER (optional compiler
# launcher, e.g. ccache), LIBDIR (CMAKE_INSTALL_LIBDIR), JOBS (parallel build jobs).
cmake_minimum_required(VERSION 3.25)
set(prefix ${WORK_DIR}/prefix)
if(NOT JOBS)
  set(JOBS 1)
endif()

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(rc)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}")
  endif()
  message("${out}")
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

if(MODE STREQUAL "install")
  file(REMOVE_RECURSE ${prefix})
  run("installing gameplan" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
  foreach(f include/gameplan/gameplan.hpp include/gameplan/config.hpp ${LIBDIR}/cmake/gameplan/gameplanConfig.cmake
            ${LIBDIR}/pkgconfig/gameplan.pc ${LIBDIR}/pkgconfig/gameplan-io.pc)
    if(NOT EXISTS ${prefix}/${f})
      message(FATAL_ERROR "the install lacks ${f}")
    endif()
  endforeach()
  return()
endif()

if(MODE STREQUAL "pkg_config")
  find_program(PKG_CONFIG pkg-config REQUIRED)
  set(ENV{PKG_CONFIG_PATH} ${prefix}/${LIBDIR}/pkgconfig)
  set(work ${WORK_DIR}/pkg_config)
  file(REMOVE_RECURSE ${work})
  file(MAKE_DIRECTORY ${work})
  file(REAL_PATH ${prefix} real_prefix)
  foreach(pair "gameplan;main_core" "gameplan-io;main_io")
    list(GET pair 0 pc)
    list(GET pair 1 program)
    run("pkg-config --cflags --libs ${pc}" ${PKG_CONFIG} --cflags --libs ${pc})
    string(STRIP "${run_output}" flags)
    # The flags must point into the scratch prefix (relocated install) and name the libraries.
    separate_arguments(flag_list UNIX_COMMAND "${flags}")
    set(dirs "")
    foreach(f IN LISTS flag_list)
      if(f MATCHES "^-([IL])(.+)$")
        file(REAL_PATH "${CMAKE_MATCH_2}" d)
        list(APPEND dirs "-${CMAKE_MATCH_1}${d}")
      endif()
    endforeach()
    set(lib_regex "-lgameplan( |$)")
    if(pc STREQUAL "gameplan-io")
      set(lib_regex "-lgameplan_io .*-lgameplan .*-lpng")
    endif()
    if(NOT "-I${real_prefix}/include" IN_LIST dirs)
      message(FATAL_ERROR "pkg-config ${pc}: no -I${real_prefix}/include in ${flags}")
    endif()
    if(NOT "-L${real_prefix}/${LIBDIR}" IN_LIST dirs OR NOT flags MATCHES "${lib_regex}")
      message(FATAL_ERROR "pkg-config ${pc} gave unexpected flags: ${flags}\n(prefix ${real_prefix})")
    endif()
    run("compiling ${program}.cpp with pkg-config ${pc}"
        ${CXX} -std=c++20 ${SOURCE}/tests/cmake/consumer/${program}.cpp -o ${work}/${program} ${flag_list})
    run("running ${program} (pkg-config)" ${work}/${program})
  endforeach()
  return()
endif()

set(work ${WORK_DIR}/${MODE})
file(REMOVE_RECURSE ${work})
# Build type "None": no optimisation and no debug information, the cheapest compile. These tests check
# how the library is found and linked, not its speed.
set(args -DMODE=${MODE} -DGAMEPLAN_SOURCE=${SOURCE} -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_COMPILER=${CXX})
if(LAUNCHER)
  list(APPEND args -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
endif()
if(MODE STREQUAL "find_package")
  list(APPEND args -DCMAKE_PREFIX_PATH=${prefix} -DMODE=find_package)
elseif(MODE STREQUAL "find_package_core")
  list(APPEND args -DCMAKE_PREFIX_PATH=${prefix} -DMODE=find_package -DCORE_ONLY=ON
       -DCMAKE_DISABLE_FIND_PACKAGE_PNG=ON -DCMAKE_DISABLE_FIND_PACKAGE_nlohmann_json=ON)
  # The installed core config must not even mention them outside the io component.
  file(READ ${prefix}/${LIBDIR}/cmake/gameplan/gameplanTargets.cmake targets)
  if(targets MATCHES "PNG|nlohmann")
    message(FATAL_ERROR "gameplanTargets.cmake (the core) refers to libpng or nlohmann-json")
  endif()
elseif(MODE STREQUAL "fetchcontent")
  list(APPEND args -DCORE_ONLY=ON -DCMAKE_DISABLE_FIND_PACKAGE_PNG=ON -DCMAKE_DISABLE_FIND_PACKAGE_nlohmann_json=ON)
elseif(NOT MODE STREQUAL "subdirectory")
  message(FATAL_ERROR "unknown MODE '${MODE}'")
endif()
run("configuring the consumer (${MODE})" ${CMAKE_COMMAND} -S ${SOURCE}/tests/cmake/consumer -B ${work} -G ${GENERATOR} ${args})
# add_subdirectory and FetchContent: the whole configure runs (packages found or, for the core alone, made
# unfindable; no developer targets; the consumer's targets linked to gameplan::gameplan and gameplan::io)
# and the consumer's own sources compile with the usage requirements the library passes on (include
# paths, C++20). The library itself is not compiled again: its sources and CMake code are the ones the
# main build compiles, and the installed modes build, link and run consumers against both components.
if(MODE STREQUAL "subdirectory" OR MODE STREQUAL "fetchcontent")
  if(GENERATOR MATCHES "Ninja")
    set(objects CMakeFiles/consumer_core.dir/main_core.cpp.o)
    if(MODE STREQUAL "subdirectory")
      list(APPEND objects CMakeFiles/consumer_io.dir/main_io.cpp.o)
    endif()
    run("compiling the consumer's sources (${MODE})" ${CMAKE_COMMAND} --build ${work} -j ${JOBS} --target ${objects})
    return()
  endif()
  # Other generators cannot build one object: build and run the core consumer (compiles the library).
  run("building the consumer (${MODE})" ${CMAKE_COMMAND} --build ${work} -j ${JOBS} --target consumer_core)
  run("running the core consumer (${MODE})" ${work}/consumer_core)
  return()
endif()
run("building the consumer (${MODE})" ${CMAKE_COMMAND} --build ${work} -j ${JOBS})
run("running the core consumer (${MODE})" ${work}/consumer_core)
if(EXISTS ${work}/consumer_io)
  run("running the io consumer (${MODE})" ${work}/consumer_io)
elseif(MODE STREQUAL "find_package")
  message(FATAL_ERROR "the io consumer was not built (${MODE})")
endif()
