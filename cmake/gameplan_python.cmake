# Option GAMEPLAN_PYTHON: the `gameplan` Python module (python/, pybind11). Defaults to on only when
# gameplan is the top-level project, not instrumented by a sanitizer or for fuzzing, and pybind11 and the Python
# development files are found (Debian: pybind11-dev, python3-dev).
#
# The system interpreter /usr/bin/python3 is preferred over one found first on PATH (pyenv, conda): it
# is the one that sees Debian's pytest and Dask. -DPython3_EXECUTABLE=... chooses another.
if(NOT DEFINED Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
  set(Python3_EXECUTABLE /usr/bin/python3)
endif()
set(gp_python_default OFF)
if(PROJECT_IS_TOP_LEVEL AND GAMEPLAN_IO AND NOT GAMEPLAN_SANITIZE AND NOT GAMEPLAN_TSAN AND NOT GAMEPLAN_FUZZ
   AND NOT DEFINED GAMEPLAN_PYTHON)
  find_package(Python3 COMPONENTS Interpreter Development QUIET)
  if(Python3_FOUND)
    find_package(pybind11 CONFIG QUIET)
    if(pybind11_FOUND)
      set(gp_python_default ON)
    endif()
  endif()
endif()
option(GAMEPLAN_PYTHON "Build the gameplan Python module (needs pybind11 and Python development files)" ${gp_python_default})
if(GAMEPLAN_PYTHON)
  if(NOT GAMEPLAN_IO)
    message(FATAL_ERROR "GAMEPLAN_PYTHON needs GAMEPLAN_IO")
  endif()
  find_package(Python3 REQUIRED COMPONENTS Interpreter Development)
  find_package(pybind11 CONFIG REQUIRED)
  add_subdirectory(python)
endif()
