# Public header checks (included from tests/CMakeLists.txt).
# 1. Every public header compiles on its own: one generated .cpp per header under include/gameplan
#    (globbed at configure time, so a new header is covered by the next configure), each including its
#    header twice (include guard). Compiled as part of the build; a header missing an #include fails it.
#    Skipped in sanitizer builds (the same sources; only the compiler flags differ).
# 2. The umbrella header includes every public core header (test headers.umbrella).
file(GLOB_RECURSE gp_public_headers CONFIGURE_DEPENDS RELATIVE ${PROJECT_SOURCE_DIR}/include
     ${PROJECT_SOURCE_DIR}/include/gameplan/*.hpp)
if(NOT GAMEPLAN_SANITIZE AND NOT GAMEPLAN_TSAN)
  set(gp_header_dir ${CMAKE_CURRENT_BINARY_DIR}/header_checks)
  set(gp_core_checks "")
  set(gp_io_checks "")
  foreach(h IN LISTS gp_public_headers ITEMS gameplan/config.hpp)
    string(MAKE_C_IDENTIFIER "${h}" id)
    set(src ${gp_header_dir}/${id}.cpp)
    file(CONFIGURE OUTPUT ${src} CONTENT "// generated: ${h} must compile on its own\n#include <${h}>\n#include <${h}>\n")
    if(h MATCHES "^gameplan/io/")
      list(APPEND gp_io_checks ${src})
    else()
      list(APPEND gp_core_checks ${src})
    endif()
  endforeach()
  # Core headers see only the core's include path; io headers the core's and io's. -O0: only parsing
  # matters here, so the checks stay cheap.
  add_library(gameplan_header_checks OBJECT ${gp_core_checks})
  target_link_libraries(gameplan_header_checks PRIVATE gameplan::gameplan gameplan_warnings)
  target_compile_options(gameplan_header_checks PRIVATE $<$<CXX_COMPILER_ID:GNU,Clang,AppleClang>:-O0>)
  if(gp_io_checks)
    add_library(gameplan_io_header_checks OBJECT ${gp_io_checks})
    target_link_libraries(gameplan_io_header_checks PRIVATE gameplan::io gameplan_warnings)
    target_compile_options(gameplan_io_header_checks PRIVATE $<$<CXX_COMPILER_ID:GNU,Clang,AppleClang>:-O0>)
  endif()
endif()
add_test(NAME headers.umbrella
  COMMAND ${CMAKE_COMMAND} -DINCLUDE_DIR=${PROJECT_SOURCE_DIR}/include -P ${CMAKE_CURRENT_LIST_DIR}/check_umbrella.cmake)
