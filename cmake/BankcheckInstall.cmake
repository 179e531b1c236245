# Install the layers as a CMake package: find_package(bankcheck) gives
# bankcheck::model, bankcheck::trace, ..., and bankcheck::bankcheck (all of
# them). The headers go to include/bankcheck/ under their paths in the tree,
# the one include directory of every exported layer, so that
# #include "model/bank_model.hpp" is spelled the same installed and in the
# tree; only the layers' folders are installed (not tests/, validate/, cli/).
# tests/install/ checks it by installing into a scratch prefix and building a
# small consumer against it with the packages bankcheck::model does not need
# hidden.
include(CMakePackageConfigHelpers)
get_property(layers GLOBAL PROPERTY BANKCHECK_LAYERS)
get_property(layer_names GLOBAL PROPERTY BANKCHECK_LAYER_NAMES)
get_property(layer_dirs GLOBAL PROPERTY BANKCHECK_LAYER_DIRS)
install(TARGETS ${layers} bankcheck_all EXPORT bankcheckTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
foreach(dir ${layer_dirs})
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/bankcheck/${dir}
    FILES_MATCHING PATTERN "*.hpp")
endforeach()
install(TARGETS bankcheck RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
set(config_dir ${CMAKE_INSTALL_LIBDIR}/cmake/bankcheck)
install(EXPORT bankcheckTargets NAMESPACE bankcheck:: DESTINATION ${config_dir})

# Each layer's packages, its own and those of the layers it uses, for the
# package configuration: a consumer that asks for bankcheck::model is asked
# for Boost and Threads, not for Eigen (proofs) or Graphviz (draw).
function(bankcheck_layer_packages layer out)
  get_property(packages GLOBAL PROPERTY BANKCHECK_PACKAGES_${layer})
  get_property(uses GLOBAL PROPERTY BANKCHECK_USES_${layer})
  foreach(used ${uses})
    bankcheck_layer_packages(${used} below)
    list(APPEND packages ${below})
  endforeach()
  list(REMOVE_DUPLICATES packages)
  set(${out} ${packages} PARENT_SCOPE)
endfunction()
set(BANKCHECK_PACKAGE_TABLE "set(_bankcheck_layers ${layer_names} bankcheck)\n")
set(all_packages)
foreach(layer ${layer_names})
  bankcheck_layer_packages(${layer} packages)
  list(APPEND all_packages ${packages})
  string(APPEND BANKCHECK_PACKAGE_TABLE "set(_bankcheck_packages_${layer} ${packages})\n")
endforeach()
list(REMOVE_DUPLICATES all_packages)
string(APPEND BANKCHECK_PACKAGE_TABLE "set(_bankcheck_packages_bankcheck ${all_packages})")

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/bankcheckConfig.cmake.in
  ${PROJECT_BINARY_DIR}/bankcheckConfig.cmake INSTALL_DESTINATION ${config_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/bankcheckConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/bankcheckConfig.cmake ${PROJECT_BINARY_DIR}/bankcheckConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/FindGraphviz.cmake DESTINATION ${config_dir})
