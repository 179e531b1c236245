# Install the layers as a CMake package: find_package(bankcheck) gives
# bankcheck::model, bankcheck::trace, ..., and bankcheck::bankcheck (all of
# them). tests/install/ checks it by installing into a scratch prefix and
# building a small consumer against it.
include(CMakePackageConfigHelpers)
get_property(layers GLOBAL PROPERTY BANKCHECK_LAYERS)
get_property(layer_dirs GLOBAL PROPERTY BANKCHECK_LAYER_DIRS)
install(TARGETS ${layers} bankcheck_all EXPORT bankcheckTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
foreach(dir ${layer_dirs})
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/bankcheck/${dir}
    FILES_MATCHING PATTERN "*.hpp")
endforeach()
install(TARGETS bankcheck RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
set(config_dir ${CMAKE_INSTALL_LIBDIR}/cmake/bankcheck)
install(EXPORT bankcheckTargets NAMESPACE bankcheck:: DESTINATION ${config_dir})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/bankcheckConfig.cmake.in
  ${PROJECT_BINARY_DIR}/bankcheckConfig.cmake INSTALL_DESTINATION ${config_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/bankcheckConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/bankcheckConfig.cmake ${PROJECT_BINARY_DIR}/bankcheckConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/FindGraphviz.cmake DESTINATION ${config_dir})
