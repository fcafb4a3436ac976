# ns3-oot.cmake -- out-of-tree shim for ns-3 module CMakeLists.txt files.
# Lets src/<module>/CMakeLists.txt written in ns-3's own form (build_lib / build_lib_example /
# build_example) build against an *installed* ns-3 found with find_package(ns3) (e.g. Debian's
# libns3-dev 3.37), while the very same files stay valid inside an ns-3 source tree.
# Call find_package(ns3 ...) before include()-ing this file.
include_guard(GLOBAL)
include(CheckIncludeFileCXX) # ns-3's create-module.py template uses check_include_file_cxx
include(GNUInstallDirs)
set(NS3_OOT_CMAKE_DIR ${CMAKE_CURRENT_LIST_DIR})

option(NS3_OOT_EXAMPLES "Build module examples (ns-3: ENABLE_EXAMPLES)" ON)
option(NS3_OOT_TESTS "Build module TestSuites into a test-runner (ns-3: ENABLE_TESTS)" ON)
# ns-3's "optimized" profile compiles logging and asserts out; the hot path pays for NS_LOG checks
# otherwise (measured at 5-6 % of cycles). Debug builds keep both.
if(CMAKE_BUILD_TYPE STREQUAL "Debug")
  set(_ns3oot_logs_default ON)
else()
  set(_ns3oot_logs_default OFF)
endif()
option(NS3_OOT_LOGS "Define NS3_LOG_ENABLE/NS3_ASSERT_ENABLE (NS_LOG*/NS_ASSERT are no-ops otherwise)" ${_ns3oot_logs_default})

set(ENABLE_EXAMPLES ${NS3_OOT_EXAMPLES})
set(ENABLE_TESTS ${NS3_OOT_TESTS})
if(ENABLE_TESTS)
  enable_testing()
endif()
if(NS3_OOT_LOGS)
  add_compile_definitions(NS3_LOG_ENABLE NS3_ASSERT_ENABLE)
endif()

set(NS3_OOT_INCLUDE_DIR ${CMAKE_BINARY_DIR}/include)
file(MAKE_DIRECTORY ${NS3_OOT_INCLUDE_DIR}/ns3)

get_property(_ns3oot_imported DIRECTORY PROPERTY IMPORTED_TARGETS) # CMake >= 3.21
set(ns3-libs)
foreach(_t IN LISTS _ns3oot_imported)
  if(_t MATCHES "^ns3::lib(.+)$")
    set(lib${CMAKE_MATCH_1} ${_t})
    list(APPEND ns3-libs ${_t})
  endif()
endforeach()
if(NOT TARGET ns3::libcore)
  message(FATAL_ERROR "ns3-oot.cmake: call find_package(ns3) first")
endif()
set(NS3_OOT_VERSION_TAG "ns${ns3_VERSION}")

macro(ns3oot_add_modules modules_root)
  file(GLOB _ns3oot_children RELATIVE ${modules_root} ${modules_root}/*)
  set(_ns3oot_modules)
  foreach(_m IN LISTS _ns3oot_children)
    if(IS_DIRECTORY ${modules_root}/${_m} AND EXISTS ${modules_root}/${_m}/CMakeLists.txt)
      list(APPEND _ns3oot_modules ${_m})
      set(lib${_m} lib${_m})
    endif()
  endforeach()
  foreach(_m IN LISTS _ns3oot_modules)
    message(STATUS "ns3-oot: processing module ${_m}")
    add_subdirectory(${modules_root}/${_m})
  endforeach()
endmacro()

function(_ns3oot_stage_headers)
  foreach(_h IN LISTS ARGN)
    get_filename_component(_abs ${_h} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    get_filename_component(_name ${_h} NAME)
    set(_stub ${NS3_OOT_INCLUDE_DIR}/ns3/${_name})
    # A relative path keeps the stub identical across checkouts, so a compiler cache (ccache with
    # base_dir) shares objects between work trees of the same repository.
    file(RELATIVE_PATH _rel ${NS3_OOT_INCLUDE_DIR}/ns3 ${_abs})
    set(_content "#include \"${_rel}\"\n")
    if(EXISTS ${_stub})
      file(READ ${_stub} _old)
      if(_old STREQUAL _content)
        continue()
      endif()
    endif()
    file(WRITE ${_stub} "${_content}")
  endforeach()
endfunction()

function(_ns3oot_write_module_header name)
  string(TOUPPER "${name}" _up)
  string(REPLACE "-" "_" _up "${_up}")
  set(_c "#ifdef NS3_MODULE_COMPILATION\n")
  string(APPEND _c "#error \"Do not include ns3 module aggregator headers from other modules; these are meant only for end user scripts.\"\n#endif\n")
  string(APPEND _c "#ifndef NS3_MODULE_${_up}\n#define NS3_MODULE_${_up}\n")
  foreach(_h IN LISTS ARGN)
    get_filename_component(_n ${_h} NAME)
    string(APPEND _c "#include <ns3/${_n}>\n")
  endforeach()
  string(APPEND _c "#endif\n")
  file(WRITE ${NS3_OOT_INCLUDE_DIR}/ns3/${name}-module.h "${_c}")
endfunction()

function(build_lib)
  set(options IGNORE_PCH GENERATE_EXPORT_HEADER)
  set(oneValueArgs LIBNAME)
  set(multiValueArgs SOURCE_FILES HEADER_FILES LIBRARIES_TO_LINK TEST_SOURCES
      TEST_LIBRARIES_TO_LINK DEPRECATED_HEADER_FILES MODULE_ENABLED_FEATURES PRIVATE_HEADER_FILES)
  cmake_parse_arguments(BLIB "${options}" "${oneValueArgs}" "${multiValueArgs}" ${ARGN})
  set(target lib${BLIB_LIBNAME})
  file(RELATIVE_PATH FOLDER ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR})

  add_library(${target} SHARED ${BLIB_SOURCE_FILES} ${BLIB_HEADER_FILES} ${BLIB_PRIVATE_HEADER_FILES})
  add_library(ns3::${target} ALIAS ${target})
  set_target_properties(${target} PROPERTIES
    OUTPUT_NAME ${NS3_OOT_VERSION_TAG}-${BLIB_LIBNAME}
    LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib)
  target_compile_definitions(${target} PRIVATE NS3_MODULE_COMPILATION)
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${NS3_OOT_INCLUDE_DIR}> $<INSTALL_INTERFACE:include>)
  target_link_libraries(${target} PUBLIC ${BLIB_LIBRARIES_TO_LINK})

  _ns3oot_stage_headers(${BLIB_HEADER_FILES} ${BLIB_PRIVATE_HEADER_FILES} ${BLIB_DEPRECATED_HEADER_FILES})
  _ns3oot_write_module_header(${BLIB_LIBNAME} ${BLIB_HEADER_FILES})
  set_property(GLOBAL APPEND PROPERTY NS3OOT_MODULE_LIBS ${target})
  set_property(GLOBAL APPEND PROPERTY NS3OOT_MODULE_NAMES ${BLIB_LIBNAME})

  # `cmake --install build --prefix P`: the library, its real headers (not the build tree's
  # stubs) and its module header, for programs outside this tree (find_package(inasim), or
  # pkg-config inasim).
  install(TARGETS ${target} EXPORT inasimTargets LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(FILES ${BLIB_HEADER_FILES} ${NS3_OOT_INCLUDE_DIR}/ns3/${BLIB_LIBNAME}-module.h
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ns3)

  foreach(_ex example examples)
    if(ENABLE_EXAMPLES AND EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/${_ex}/CMakeLists.txt)
      add_subdirectory(${_ex})
    endif()
  endforeach()
  if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/test/examples-to-run.py)
    set_property(GLOBAL APPEND PROPERTY NS3OOT_EXAMPLES_TO_RUN
      "${CMAKE_CURRENT_SOURCE_DIR}/test/examples-to-run.py|${CMAKE_CURRENT_BINARY_DIR}")
  endif()

  if(ENABLE_TESTS AND BLIB_TEST_SOURCES)
    add_library(${target}-test OBJECT ${BLIB_TEST_SOURCES})
    target_link_libraries(${target}-test PUBLIC ${target} ${BLIB_LIBRARIES_TO_LINK}
                                                ${BLIB_TEST_LIBRARIES_TO_LINK})
    target_compile_definitions(${target}-test PRIVATE NS_TEST_SOURCEDIR="${FOLDER}/test")
    set_property(GLOBAL APPEND PROPERTY NS3OOT_TEST_OBJLIBS ${target}-test)
    foreach(_src IN LISTS BLIB_TEST_SOURCES)
      file(READ ${CMAKE_CURRENT_SOURCE_DIR}/${_src} _txt)
      string(REGEX MATCHALL "TestSuite[ \t\r\n]*\\([ \t\r\n]*\"[^\"]+\"" _hits "${_txt}")
      foreach(_hit IN LISTS _hits)
        string(REGEX REPLACE ".*\"([^\"]+)\"" "\\1" _suite "${_hit}")
        set_property(GLOBAL APPEND PROPERTY NS3OOT_TEST_SUITES ${_suite})
      endforeach()
    endforeach()
  endif()
endfunction()

# Keep module libs even when only reached through TypeId names (Debian gcc defaults to
# --as-needed, and ns-3's exported targets append -Wl,--as-needed). ns-3 does the same.
function(ns3oot_link_modules target)
  if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
    target_link_libraries(${target} PRIVATE -Wl,--no-as-needed ${ARGN} -Wl,--as-needed)
  else()
    target_link_libraries(${target} PRIVATE ${ARGN})
  endif()
endfunction()

function(build_lib_example)
  cmake_parse_arguments(BLIB_EXAMPLE "IGNORE_PCH" "NAME" "SOURCE_FILES;HEADER_FILES;LIBRARIES_TO_LINK" ${ARGN})
  add_executable(${BLIB_EXAMPLE_NAME} ${BLIB_EXAMPLE_SOURCE_FILES} ${BLIB_EXAMPLE_HEADER_FILES})
  ns3oot_link_modules(${BLIB_EXAMPLE_NAME} ${lib${BLIB_LIBNAME}} ${BLIB_EXAMPLE_LIBRARIES_TO_LINK})
endfunction()

function(build_example)
  cmake_parse_arguments(EXAMPLE "IGNORE_PCH" "NAME" "SOURCE_FILES;HEADER_FILES;LIBRARIES_TO_LINK" ${ARGN})
  add_executable(${EXAMPLE_NAME} ${EXAMPLE_SOURCE_FILES} ${EXAMPLE_HEADER_FILES})
  ns3oot_link_modules(${EXAMPLE_NAME} ${EXAMPLE_LIBRARIES_TO_LINK})
endfunction()

function(ns3oot_add_scratch scratch_dir)
  get_property(_mods GLOBAL PROPERTY NS3OOT_MODULE_LIBS)
  file(GLOB _single CONFIGURE_DEPENDS ${scratch_dir}/*.cc)
  foreach(_f IN LISTS _single)
    get_filename_component(_n ${_f} NAME_WE)
    add_executable(scratch_${_n} ${_f})
    set_target_properties(scratch_${_n} PROPERTIES OUTPUT_NAME ${_n}
      RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/scratch)
    ns3oot_link_modules(scratch_${_n} ${_mods} ${ns3-libs})
  endforeach()
  file(GLOB _dirs LIST_DIRECTORIES true ${scratch_dir}/*)
  foreach(_d IN LISTS _dirs)
    if(IS_DIRECTORY ${_d})
      file(GLOB _srcs CONFIGURE_DEPENDS ${_d}/*.cc)
      if(_srcs)
        get_filename_component(_n ${_d} NAME)
        add_executable(scratch_${_n} ${_srcs})
        set_target_properties(scratch_${_n} PROPERTIES OUTPUT_NAME ${_n}
          RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/scratch/${_n})
        ns3oot_link_modules(scratch_${_n} ${_mods} ${ns3-libs})
      endif()
    endif()
  endforeach()
endfunction()

# The installed package: CMake config (find_package(inasim) gives inasim::inasim, every module
# linked --no-as-needed) and a pkg-config file, both listing the modules this build made.
function(_ns3oot_install_package)
  get_property(_names GLOBAL PROPERTY NS3OOT_MODULE_NAMES)
  set(_dest ${CMAKE_INSTALL_LIBDIR}/cmake/inasim)
  install(EXPORT inasimTargets NAMESPACE inasim:: DESTINATION ${_dest})
  set(_targets)
  set(_libs)
  foreach(_n IN LISTS _names)
    string(APPEND _targets " inasim::lib${_n}")
    string(APPEND _libs " -l${NS3_OOT_VERSION_TAG}-${_n}")
  endforeach()
  set(INASIM_PACKAGE_TARGETS "${_targets}")
  set(INASIM_PACKAGE_LIBS "${_libs}")
  set(INASIM_NS3_VERSION ${ns3_VERSION})
  configure_file(${NS3_OOT_CMAKE_DIR}/inasimConfig.cmake.in ${CMAKE_BINARY_DIR}/inasimConfig.cmake
                 @ONLY)
  configure_file(${NS3_OOT_CMAKE_DIR}/inasim.pc.in ${CMAKE_BINARY_DIR}/inasim.pc @ONLY)
  install(FILES ${CMAKE_BINARY_DIR}/inasimConfig.cmake DESTINATION ${_dest})
  install(FILES ${CMAKE_BINARY_DIR}/inasim.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endfunction()

function(ns3oot_finalize)
  _ns3oot_install_package()
  get_property(_objlibs GLOBAL PROPERTY NS3OOT_TEST_OBJLIBS)
  if(ENABLE_TESTS AND _objlibs)
    set(_main ${CMAKE_BINARY_DIR}/ns3oot-test-runner.cc)
    file(WRITE ${_main} "#include \"ns3/test.h\"\nint\nmain(int argc, char* argv[])\n{\n    return ns3::TestRunner::Run(argc, argv);\n}\n")
    add_executable(test-runner ${_main})
    set_target_properties(test-runner PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/utils)
    target_link_libraries(test-runner PRIVATE ${_objlibs})
    get_property(_mods GLOBAL PROPERTY NS3OOT_MODULE_LIBS)
    ns3oot_link_modules(test-runner ${_mods})
    get_property(_suites GLOBAL PROPERTY NS3OOT_TEST_SUITES)
    list(REMOVE_DUPLICATES _suites)
    foreach(_s IN LISTS _suites)
      add_test(NAME ns3-suite/${_s} COMMAND test-runner --test-name=${_s} --stop-on-failure)
      set_tests_properties(ns3-suite/${_s} PROPERTIES LABELS "ns3;unit")
    endforeach()
  endif()

  get_property(_etr GLOBAL PROPERTY NS3OOT_EXAMPLES_TO_RUN)
  find_package(Python3 COMPONENTS Interpreter QUIET)
  if(ENABLE_TESTS AND ENABLE_EXAMPLES AND _etr AND Python3_Interpreter_FOUND)
    foreach(_pair IN LISTS _etr)
      string(REPLACE "|" ";" _pair "${_pair}")
      list(GET _pair 0 _file)
      execute_process(
        COMMAND ${Python3_EXECUTABLE} -c "
import sys
ns = dict(ENABLE_EXAMPLES=True, ENABLE_TESTS=True, ENABLE_REAL_TIME=True, ENABLE_THREADING=True,
          ENABLE_PYTHON_BINDINGS=False, NSCLICK=False, ENABLE_BRITE=False, ENABLE_OPENFLOW=False,
          ENABLE_EMU=False, ENABLE_TAP=False, ENABLE_VALGRINDTESTS=False, EXAMPLE_DIRECTORIES=[])
exec(open(sys.argv[1]).read(), ns)
for ex, do_run, *rest in ns.get('cpp_examples', []):
    if eval(do_run, dict(ns)):
        print(ex)
" ${_file}
        OUTPUT_VARIABLE _lines OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE _rc)
      if(NOT _rc EQUAL 0)
        message(WARNING "ns3-oot: could not read ${_file}")
        continue()
      endif()
      string(REPLACE "\n" ";" _lines "${_lines}")
      foreach(_line IN LISTS _lines)
        separate_arguments(_argv UNIX_COMMAND "${_line}")
        list(POP_FRONT _argv _exe)
        if(TARGET ${_exe})
          string(MAKE_C_IDENTIFIER "${_line}" _id)
          add_test(NAME example/${_id} COMMAND ${_exe} ${_argv})
          set_tests_properties(example/${_id} PROPERTIES LABELS "ns3;example")
        endif()
      endforeach()
    endforeach()
  endif()
endfunction()
