# bankcheck_layer(NAME DIR dir [DEPS targets...] [PRIVATE_DEPS targets...])
#
# One static library per layer of docs/architecture.md: every .cpp under DIR
# (recursively, so a new file in an algorithm's folder needs no edit here),
# exported as bankcheck::NAME. DEPS are what the layer's headers and objects
# use (other layers as bankcheck::<layer>, packages as their imported
# targets); the installed package finds, for each layer a consumer asks for,
# only the packages of that layer and the layers below it
# (cmake/BankcheckInstall.cmake).
#
# Headers are included by their path from the repository root
# ("model/bank_model.hpp"), the same spelling in every place: in the tree,
# a layer's include directory is BANKCHECK_INCLUDE_ROOT, which holds a link
# to each layer's folder and nothing else (so tests/, validate/, cli/ and
# kernels/ are not on a consumer's include path); installed, it is
# include/bankcheck/, which holds the layers' headers under the same paths.
set(BANKCHECK_INCLUDE_ROOT ${PROJECT_BINARY_DIR}/include)
function(bankcheck_layer name)
  cmake_parse_arguments(L "" "DIR" "DEPS;PRIVATE_DEPS" ${ARGN})
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/${L_DIR}/*.cpp)
  set(target bankcheck_${name})
  add_library(${target} STATIC ${sources})
  add_library(bankcheck::${name} ALIAS ${target})
  get_filename_component(link_parent ${BANKCHECK_INCLUDE_ROOT}/${L_DIR} DIRECTORY)
  file(MAKE_DIRECTORY ${link_parent})
  file(CREATE_LINK ${PROJECT_SOURCE_DIR}/${L_DIR} ${BANKCHECK_INCLUDE_ROOT}/${L_DIR} SYMBOLIC)
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${BANKCHECK_INCLUDE_ROOT}>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/bankcheck>)
  target_link_libraries(${target} PUBLIC ${L_DEPS} PRIVATE ${L_PRIVATE_DEPS})
  target_compile_features(${target} PUBLIC cxx_std_20)
  bankcheck_settings(${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name} POSITION_INDEPENDENT_CODE ON)
  # Build time (docs/scaling.md): a layer compiles its sources eight
  # to a translation unit (CMake's unity build), so the headers they share are
  # parsed and instantiated once per batch; on the 2-core machine this cut the
  # libraries' compile from 240 to 137 job seconds (docs/scaling.md). It also makes a name
  # defined twice in a layer's anonymous namespaces an error (one home each).
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
  # What the package configuration needs: the layers below (USES) and the
  # packages (the part of an imported target's name before ::).
  set(uses)
  set(packages)
  foreach(dep ${L_DEPS} ${L_PRIVATE_DEPS})
    if(dep MATCHES "^bankcheck::(.+)$")
      list(APPEND uses ${CMAKE_MATCH_1})
    elseif(dep MATCHES "^([A-Za-z0-9_]+)::")
      list(APPEND packages ${CMAKE_MATCH_1})
    endif()
  endforeach()
  set_property(GLOBAL PROPERTY BANKCHECK_USES_${name} ${uses})
  set_property(GLOBAL PROPERTY BANKCHECK_PACKAGES_${name} ${packages})
  set_property(GLOBAL APPEND PROPERTY BANKCHECK_LAYER_NAMES ${name})
  set_property(GLOBAL APPEND PROPERTY BANKCHECK_LAYERS ${target})
  set_property(GLOBAL APPEND PROPERTY BANKCHECK_LAYER_DIRS ${L_DIR})
endfunction()
