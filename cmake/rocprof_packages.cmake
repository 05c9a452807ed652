# The install tree's packages, as ROCm's: lib/cmake/rocprofiler-sdk/ and
# lib/cmake/rocprofiler-sdk-roctx/ (config, version, targets; rocprofiler-sdk's target names) and
# lib/pkgconfig/rocprofiler-sdk{,-roctx}.pc. Included after the targets exist; the targets join
# their export sets where they are installed (libprofiler/, libprofiler/roctx/).
include(CMakePackageConfigHelpers)

# The packages carry the C API's version (ROCPROFILER_VERSION_* in defines.h), the number a tool
# compares against, not the project's.
file(STRINGS ${PROJECT_SOURCE_DIR}/libprofiler/include/rocprofiler-sdk/defines.h _rocprof_version
     REGEX "^#define ROCPROFILER_VERSION_(MAJOR|MINOR|PATCH) ")
foreach(_part MAJOR MINOR PATCH)
  string(REGEX REPLACE ".*ROCPROFILER_VERSION_${_part} ([0-9]+).*" "\\1" _rocprof_${_part}
                       "${_rocprof_version}")
endforeach()
set(ROCPROF_SDK_VERSION "${_rocprof_MAJOR}.${_rocprof_MINOR}.${_rocprof_PATCH}")

set(_rocprof_package_dir ${CMAKE_CURRENT_LIST_DIR}/package)
foreach(_package rocprofiler-sdk rocprofiler-sdk-roctx)
  set(_dest ${CMAKE_INSTALL_LIBDIR}/cmake/${_package})
  set(_out ${PROJECT_BINARY_DIR}/package/${_package})
  install(EXPORT ${_package}-targets NAMESPACE ${_package}:: DESTINATION ${_dest}
          FILE ${_package}-targets.cmake)
  configure_package_config_file(${_rocprof_package_dir}/${_package}-config.cmake.in
    ${_out}/${_package}-config.cmake INSTALL_DESTINATION ${_dest}
    PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_LIBDIR)
  write_basic_package_version_file(${_out}/${_package}-config-version.cmake
    VERSION ${ROCPROF_SDK_VERSION} COMPATIBILITY SameMajorVersion)
  install(FILES ${_out}/${_package}-config.cmake ${_out}/${_package}-config-version.cmake
          DESTINATION ${_dest})
  configure_file(${_rocprof_package_dir}/${_package}.pc.in ${_out}/${_package}.pc @ONLY)
  install(FILES ${_out}/${_package}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endforeach()
install(DIRECTORY ${_rocprof_package_dir}/Modules
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/rocprofiler-sdk)
