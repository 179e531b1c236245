# ctest: the headers a consumer can include are the layers' and only theirs,
# under the paths they have in the tree.
#  - installed: every file under PREFIX/include is a layer's header at
#    include/bankcheck/<its path in the tree>; every layer header is there; every
#    #include "..." of an installed header names an installed header (so none
#    reaches tests/, validate/ or cli/, which are not installed).
#  - in the build tree: no layer's include directories show a folder of the
#    tree that is not a layer's (tests/, validate/, cli/, kernels/, ...).
# LAYERS_FILE (written by tests/CMakeLists.txt) sets LAYER_DIRS and
# BUILD_INCLUDE_DIRS.
cmake_minimum_required(VERSION 3.25)  # if(IN_LIST) and the other policies of the project
foreach(var SOURCE_DIR PREFIX LAYERS_FILE)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "headers_test.cmake needs -D${var}=...")
  endif()
endforeach()
include(${LAYERS_FILE})
# check(WHAT CONDITION...): counts one check; fails it, saying WHAT, when the
# condition (if()'s arguments) is false.
function(check what)
  set_property(GLOBAL APPEND PROPERTY HEADER_CHECKS "${what}")
  if(NOT (${ARGN}))
    message("FAIL: ${what}")
    set_property(GLOBAL APPEND PROPERTY HEADER_FAILURES "${what}")
  endif()
endfunction()

# The layer headers of the tree, as paths from the repository root.
set(tree_headers)
foreach(dir ${LAYER_DIRS})
  file(GLOB_RECURSE found RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/${dir}/*.hpp)
  list(APPEND tree_headers ${found})
endforeach()
check("the layers of the tree have headers (LAYER_DIRS: ${LAYER_DIRS})" tree_headers)

# Installed: exactly those, under include/bankcheck/.
set(root ${PREFIX}/include/bankcheck)
file(GLOB_RECURSE installed RELATIVE ${PREFIX}/include ${PREFIX}/include/*)
foreach(file ${installed})
  string(REGEX REPLACE "^bankcheck/" "" path "${file}")
  check("${file} is installed outside include/bankcheck/" NOT path STREQUAL file)
  check("include/${file} is installed but is no layer's header" path IN_LIST tree_headers)
  check("include/${file} comes from a folder that is not a layer" NOT path MATCHES "^(tests|validate|cli|kernels)/")
endforeach()
foreach(path ${tree_headers})
  check("${path} (a layer header) is not installed at include/bankcheck/${path}" EXISTS "${root}/${path}")
  if(EXISTS ${root}/${path})
    file(STRINGS ${root}/${path} includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
    foreach(line ${includes})
      string(REGEX REPLACE "^[^\"]*\"([^\"]+)\".*$" "\\1" included "${line}")
      check("${path} includes \"${included}\", which is not installed" EXISTS "${root}/${included}")
    endforeach()
  endif()
endforeach()
foreach(folder tests validate cli kernels)
  check("include/bankcheck/${folder}/ is installed" NOT EXISTS "${root}/${folder}")
endforeach()

# The build tree: every folder of the repository (two levels deep) that is
# neither a layer's folder, nor inside one, nor holds one, is out of sight of
# the layers' include directories (tests/, validate/, cli/, capture/device/).
list(REMOVE_DUPLICATES BUILD_INCLUDE_DIRS)
file(GLOB top LIST_DIRECTORIES true RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/* ${SOURCE_DIR}/*/*)
set(hidden)
foreach(folder ${top})
  get_filename_component(parent "${folder}" DIRECTORY)
  if(NOT IS_DIRECTORY ${SOURCE_DIR}/${folder} OR folder MATCHES "(^|/)\\." OR parent IN_LIST hidden)
    continue()
  endif()
  set(layer_related FALSE)
  foreach(dir ${LAYER_DIRS})
    if(folder STREQUAL dir OR folder MATCHES "^${dir}/" OR dir MATCHES "^${folder}/")
      set(layer_related TRUE)
    endif()
  endforeach()
  if(NOT layer_related)
    list(APPEND hidden ${folder})
  endif()
endforeach()
check("tests/ and validate/ are among the folders checked (${hidden})" "tests" IN_LIST hidden AND "validate" IN_LIST hidden)
foreach(include_dir ${BUILD_INCLUDE_DIRS})
  foreach(folder ${hidden})
    check("${folder}/ is includable through a layer's include directory ${include_dir}" NOT EXISTS "${include_dir}/${folder}")
  endforeach()
endforeach()
foreach(dir ${LAYER_DIRS})
  set(seen FALSE)
  foreach(include_dir ${BUILD_INCLUDE_DIRS})
    if(EXISTS ${include_dir}/${dir})
      set(seen TRUE)
    endif()
  endforeach()
  check("${dir}/ is not includable through the layers' include directories (${BUILD_INCLUDE_DIRS})" seen)
endforeach()

list(LENGTH tree_headers headers)
get_property(checks GLOBAL PROPERTY HEADER_CHECKS)
get_property(failures GLOBAL PROPERTY HEADER_FAILURES)
list(LENGTH checks checks)
list(LENGTH failures failures)
message("${checks} checks, ${failures} failed (${headers} layer headers)")
if(failures GREATER 0)
  message(FATAL_ERROR "${failures} of ${checks} checks failed")
endif()
