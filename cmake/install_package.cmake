# --- The development package (component "development"): what a C++ program
# needs to call collide or to run its geometry itself, under the install
# prefix:
#   include/collide/*.h            the geometry core's API (collide::geometry)
#   include/client/lib/*.h         the client library (collide::client)
#   include/collide/v1/*.pb.h      the generated messages and stubs
#   include/grpc/health/v1/*.pb.h  the health client (Debian ships no header)
#   lib/libcollide_*.a             static libraries
#   lib/cmake/collide/             find_package(collide CONFIG)
#   lib/pkgconfig/collide-geometry.pc, collide-client.pc
#   share/collide/proto/           the .proto files, for other languages
# The runtime image installs only the programs (component "runtime").
include(CMakePackageConfigHelpers)

set_target_properties(collide_geometry PROPERTIES EXPORT_NAME geometry)
set_target_properties(collide_client PROPERTIES EXPORT_NAME client)
set_target_properties(collide_proto PROPERTIES EXPORT_NAME proto)
set_target_properties(collide_health_proto PROPERTIES EXPORT_NAME health_proto)
set_target_properties(collide_formats PROPERTIES EXPORT_NAME formats)

install(TARGETS collide_geometry collide_proto collide_health_proto
                collide_formats collide_client
  EXPORT collideTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development)
install(DIRECTORY lib/include/collide
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT development
  FILES_MATCHING PATTERN "*.h")
install(FILES ${PROJECT_BINARY_DIR}/generated/collide/version.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/collide COMPONENT development)
install(FILES
    client/lib/collide_client.h client/lib/level_choice.h
    client/lib/packed_batch.h client/lib/packed_results.h
    client/lib/query_builders.h client/lib/query_stream.h
    client/lib/visibility_builders.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/client/lib COMPONENT development)
install(DIRECTORY ${CMAKE_BINARY_DIR}/proto/gen/collide/v1
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/collide COMPONENT development
  FILES_MATCHING PATTERN "*.h")
install(DIRECTORY ${CMAKE_BINARY_DIR}/client/health_gen/grpc/health/v1
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/grpc/health COMPONENT development
  FILES_MATCHING PATTERN "*.h")
install(DIRECTORY proto/collide
  DESTINATION ${CMAKE_INSTALL_DATADIR}/collide/proto COMPONENT development
  FILES_MATCHING PATTERN "*.proto")

set(config_dir ${CMAKE_INSTALL_LIBDIR}/cmake/collide)
install(EXPORT collideTargets NAMESPACE collide:: DESTINATION ${config_dir}
  COMPONENT development)
configure_package_config_file(cmake/collideConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/collideConfig.cmake
  INSTALL_DESTINATION ${config_dir})
write_basic_package_version_file(
  ${CMAKE_CURRENT_BINARY_DIR}/collideConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/collideConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/collideConfigVersion.cmake
  DESTINATION ${config_dir} COMPONENT development)

foreach(pc collide-geometry collide-client)
  configure_file(cmake/${pc}.pc.in ${CMAKE_CURRENT_BINARY_DIR}/${pc}.pc @ONLY)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/${pc}.pc
    DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT development)
endforeach()
