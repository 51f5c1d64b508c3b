# Compiler flags live on INTERFACE targets linked PRIVATE: nothing here touches global flags or leaks
# into consumers.
include(GNUInstallDirs)

add_library(gameplan_warnings INTERFACE)
if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  target_compile_options(gameplan_warnings INTERFACE -Wall -Wextra -Wpedantic)
  if(GAMEPLAN_WERROR)
    target_compile_options(gameplan_warnings INTERFACE -Werror)
  endif()
elseif(MSVC)
  target_compile_options(gameplan_warnings INTERFACE /W4 $<$<BOOL:${GAMEPLAN_WERROR}>:/WX>)
endif()

if(GAMEPLAN_SANITIZE)
  # AddressSanitizer + UndefinedBehaviorSanitizer instrument the libraries (core, io, the village, the C
  # API) and the examples; every program links the runtime. The test programs' and the CLI's own sources
  # are compiled without instrumentation (GAMEPLAN_SANITIZE_FLAGS is removed in tests/ and tools/gameplan/):
  # they are drivers of the library, and instrumenting their GoogleTest, CLI11 and JSON code doubled the
  # sanitizer build's time. Library code they call is checked; heap errors are caught everywhere.
  set(GAMEPLAN_SANITIZE_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=all)
  add_compile_options(${GAMEPLAN_SANITIZE_FLAGS} -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()

if(GAMEPLAN_TSAN)
  if(GAMEPLAN_SANITIZE)
    message(FATAL_ERROR "GAMEPLAN_TSAN and GAMEPLAN_SANITIZE exclude each other (use two build folders)")
  endif()
  # ThreadSanitizer, project-wide: a thread-checked program must link thread-checked code only.
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
endif()

# Installed targets take the warning flags directly (an exported target may not link a non-exported one).
function(gameplan_target_warnings target)
  get_target_property(opts gameplan_warnings INTERFACE_COMPILE_OPTIONS)
  target_compile_options(${target} PRIVATE ${opts})
endfunction()
