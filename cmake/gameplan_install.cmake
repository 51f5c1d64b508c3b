include(CMakePackageConfigHelpers)
install(TARGETS gameplan gameplan_io EXPORT gameplanTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY include/gameplan DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/gameplan DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT gameplanTargets NAMESPACE gameplan:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/gameplan)
export(EXPORT gameplanTargets NAMESPACE gameplan:: FILE ${PROJECT_BINARY_DIR}/gameplanTargets.cmake)
configure_package_config_file(cmake/gameplanConfig.cmake.in
  ${PROJECT_BINARY_DIR}/gameplanConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/gameplan)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/gameplanConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/gameplanConfig.cmake ${PROJECT_BINARY_DIR}/gameplanConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/gameplan)
if(GAMEPLAN_TOOLS)
  install(TARGETS gameplan_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
