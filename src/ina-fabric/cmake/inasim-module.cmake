# inasim_module(): the one home of the pattern every src/<module>/CMakeLists.txt follows.
#
#   inasim_module(NAME <module> LIBRARIES_TO_LINK ${libcore} ... [PRIVATE_HEADER_FILES model/x.h])
#
# A module is its folders: model/*.cc and helper/*.cc are compiled into it, model/*.h and
# helper/*.h are its public headers (less the PRIVATE_HEADER_FILES named), test/*-test-suite.cc
# are its ns-3 TestSuites. Each module used to list these by hand, every class twice (.cc and .h),
# and the lists drifted from the folders. The call hands them to build_lib, ns-3's own in a source
# tree or cmake/ns3-oot.cmake's against an installed ns-3, so the module files stay valid in both.
# The modules' wscripts (waf, ns-3 <= 3.35) collect the same files through inasim_module.py here.
#
# This file lives in ina-fabric, the module every other one builds on, so that a module folder
# linked or copied into an ns-3 tree's contrib/ finds it beside itself (../ina-fabric/).
include_guard(GLOBAL)

function(inasim_module)
  cmake_parse_arguments(IM "" "NAME" "LIBRARIES_TO_LINK;PRIVATE_HEADER_FILES" ${ARGN})
  if(NOT IM_NAME OR IM_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "inasim_module(NAME <module> LIBRARIES_TO_LINK ... "
                        "[PRIVATE_HEADER_FILES ...]): got '${ARGN}' in ${CMAKE_CURRENT_LIST_FILE}")
  endif()
  set(_here ${CMAKE_CURRENT_SOURCE_DIR})
  file(GLOB _sources RELATIVE ${_here} CONFIGURE_DEPENDS ${_here}/model/*.cc ${_here}/helper/*.cc)
  file(GLOB _headers RELATIVE ${_here} CONFIGURE_DEPENDS ${_here}/model/*.h ${_here}/helper/*.h)
  file(GLOB _tests RELATIVE ${_here} CONFIGURE_DEPENDS ${_here}/test/*-test-suite.cc)
  foreach(_h IN LISTS IM_PRIVATE_HEADER_FILES)
    if(NOT _h IN_LIST _headers)
      message(FATAL_ERROR "${CMAKE_CURRENT_LIST_FILE}: PRIVATE_HEADER_FILES names ${_h}, which is "
                          "not a model/ or helper/ header of module ${IM_NAME}")
    endif()
  endforeach()
  if(IM_PRIVATE_HEADER_FILES)
    list(REMOVE_ITEM _headers ${IM_PRIVATE_HEADER_FILES})
  endif()
  build_lib(
    LIBNAME ${IM_NAME}
    SOURCE_FILES ${_sources}
    HEADER_FILES ${_headers}
    PRIVATE_HEADER_FILES ${IM_PRIVATE_HEADER_FILES}
    LIBRARIES_TO_LINK ${IM_LIBRARIES_TO_LINK}
    TEST_SOURCES ${_tests}
  )
endfunction()
