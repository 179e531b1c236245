# bankcheck_layer(NAME DIR dir [DEPS targets...])
#
# One static library per layer of docs/architecture.md: every .cpp under DIR
# (recursively, so a new file in an algorithm's folder needs no edit here),
# exported as bankcheck::NAME. Headers are included by their path from the
# repository root ("model/bank_model.hpp"); installed, they keep that path
# under include/bankcheck/, so a consumer writes
# #include <bankcheck/model/bank_model.hpp>.
function(bankcheck_layer name)
  cmake_parse_arguments(L "" "DIR" "DEPS" ${ARGN})
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/${L_DIR}/*.cpp)
  set(target bankcheck_${name})
  add_library(${target} STATIC ${sources})
  add_library(bankcheck::${name} ALIAS ${target})
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/bankcheck>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_link_libraries(${target} PUBLIC ${L_DEPS})
  target_compile_features(${target} PUBLIC cxx_std_20)
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name} POSITION_INDEPENDENT_CODE ON)
  # Build time (docs/scaling.md): a layer compiles its sources eight
  # to a translation unit (CMake's unity build), so the headers they share are
  # parsed and instantiated once per batch; on the 2-core machine this cut the
  # libraries' compile from 240 to 137 job seconds (docs/scaling.md). It also makes a name
  # defined twice in a layer's anonymous namespaces an error (one home each).
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
  set_property(GLOBAL APPEND PROPERTY BANKCHECK_LAYERS ${target})
  set_property(GLOBAL APPEND PROPERTY BANKCHECK_LAYER_DIRS ${L_DIR})
endfunction()
