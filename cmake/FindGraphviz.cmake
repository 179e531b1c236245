# Graphviz ships pkg-config files (libgvc, libcgraph) but no CMake package;
# this module turns them into the imported target Graphviz::Graphviz.
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(PC_GVC QUIET libgvc)
  pkg_check_modules(PC_CGRAPH QUIET libcgraph)
endif()
find_path(Graphviz_INCLUDE_DIR graphviz/gvc.h HINTS ${PC_GVC_INCLUDE_DIRS})
find_library(Graphviz_GVC_LIBRARY gvc HINTS ${PC_GVC_LIBRARY_DIRS})
find_library(Graphviz_CGRAPH_LIBRARY cgraph HINTS ${PC_CGRAPH_LIBRARY_DIRS})
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Graphviz
  REQUIRED_VARS Graphviz_INCLUDE_DIR Graphviz_GVC_LIBRARY Graphviz_CGRAPH_LIBRARY
  VERSION_VAR PC_GVC_VERSION)
if(Graphviz_FOUND AND NOT TARGET Graphviz::Graphviz)
  add_library(Graphviz::Graphviz INTERFACE IMPORTED)
  set_target_properties(Graphviz::Graphviz PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${Graphviz_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "${Graphviz_GVC_LIBRARY};${Graphviz_CGRAPH_LIBRARY}")
endif()
