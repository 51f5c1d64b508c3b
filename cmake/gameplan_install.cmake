# Install rules: headers, static libraries, CMake package config (core + component io) and pkg-config
# files (gameplan.pc, gameplan-io.pc). `cmake --install BUILD --prefix DIR` relocates all of them.
include(CMakePackageConfigHelpers)
set(GAMEPLAN_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/gameplan)

# ---- core: gameplan::gameplan, no third-party dependency ----
install(TARGETS gameplan EXPORT gameplanTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
set(gp_header_excludes "")
if(NOT GAMEPLAN_IO)
  set(gp_header_excludes PATTERN io EXCLUDE)
endif()
if(NOT TARGET gameplan_c)
  list(APPEND gp_header_excludes PATTERN c EXCLUDE)  # the C API's header only with its library
endif()
install(DIRECTORY include/gameplan DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} ${gp_header_excludes})
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/gameplan DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT gameplanTargets NAMESPACE gameplan:: DESTINATION ${GAMEPLAN_CMAKE_DIR})
export(EXPORT gameplanTargets NAMESPACE gameplan:: FILE ${PROJECT_BINARY_DIR}/gameplanTargets.cmake)

# ---- component io: gameplan::io (libpng; nlohmann-json is compiled in) ----
set(GAMEPLAN_PACKAGE_COMPONENTS "")
if(GAMEPLAN_IO)
  list(APPEND GAMEPLAN_PACKAGE_COMPONENTS io)
  install(TARGETS gameplan_io EXPORT gameplanIoTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
    INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT gameplanIoTargets NAMESPACE gameplan:: DESTINATION ${GAMEPLAN_CMAKE_DIR})
  export(EXPORT gameplanIoTargets NAMESPACE gameplan:: FILE ${PROJECT_BINARY_DIR}/gameplanIoTargets.cmake)
endif()

# ---- component c: gameplan::c, the C API (a shared library; its C++ dependencies are linked in) ----
if(TARGET gameplan_c)
  list(APPEND GAMEPLAN_PACKAGE_COMPONENTS c)
  install(TARGETS gameplan_c EXPORT gameplanCTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
    INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT gameplanCTargets NAMESPACE gameplan:: DESTINATION ${GAMEPLAN_CMAKE_DIR})
  export(EXPORT gameplanCTargets NAMESPACE gameplan:: FILE ${PROJECT_BINARY_DIR}/gameplanCTargets.cmake)
endif()

configure_package_config_file(cmake/gameplanConfig.cmake.in
  ${PROJECT_BINARY_DIR}/gameplanConfig.cmake
  INSTALL_DESTINATION ${GAMEPLAN_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/gameplanConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/gameplanConfig.cmake ${PROJECT_BINARY_DIR}/gameplanConfigVersion.cmake
  DESTINATION ${GAMEPLAN_CMAKE_DIR})

# ---- pkg-config: the prefix is found from the .pc file's own place, so a relocated install works ----
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(GAMEPLAN_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(GAMEPLAN_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
else()
  string(REGEX REPLACE "[^/]+" ".." gp_up "${CMAKE_INSTALL_LIBDIR}")   # lib -> .., lib/x86_64 -> ../..
  set(GAMEPLAN_PC_PREFIX "\${pcfiledir}/../${gp_up}")
  set(GAMEPLAN_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(GAMEPLAN_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
else()
  set(GAMEPLAN_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
# A static archive carries no dependency of its own: its consumers link them (plain `--libs`); a shared
# library only needs them for `pkg-config --static`.
if(BUILD_SHARED_LIBS)
  set(GAMEPLAN_PC_LIBS_PRIVATE "Libs.private: -pthread")
  set(GAMEPLAN_PC_THREADS "")
  set(GAMEPLAN_PC_IO_REQUIRES "Requires: gameplan = ${PROJECT_VERSION}\nRequires.private: libpng")
else()
  set(GAMEPLAN_PC_LIBS_PRIVATE "")
  set(GAMEPLAN_PC_THREADS " -pthread")
  set(GAMEPLAN_PC_IO_REQUIRES "Requires: gameplan = ${PROJECT_VERSION}, libpng")
endif()
configure_file(cmake/gameplan.pc.in ${PROJECT_BINARY_DIR}/pkgconfig/gameplan.pc @ONLY)
set(gp_pc_files ${PROJECT_BINARY_DIR}/pkgconfig/gameplan.pc)
if(GAMEPLAN_IO)
  configure_file(cmake/gameplan-io.pc.in ${PROJECT_BINARY_DIR}/pkgconfig/gameplan-io.pc @ONLY)
  list(APPEND gp_pc_files ${PROJECT_BINARY_DIR}/pkgconfig/gameplan-io.pc)
endif()
if(TARGET gameplan_c)
  configure_file(cmake/gameplan-c.pc.in ${PROJECT_BINARY_DIR}/pkgconfig/gameplan-c.pc @ONLY)
  list(APPEND gp_pc_files ${PROJECT_BINARY_DIR}/pkgconfig/gameplan-c.pc)
endif()
install(FILES ${gp_pc_files} DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

if(GAMEPLAN_TOOLS)
  if(TARGET gameplan_cli)
    install(TARGETS gameplan_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
endif()
