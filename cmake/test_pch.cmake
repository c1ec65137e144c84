# Precompiled headers for the GoogleTest executables under tests/.
#
# Every test file parses GoogleTest, and the service, client and format
# tests gRPC, protobuf and the generated protos as well: several CPU
# seconds of each compile that a precompiled header pays once per build.
# Two headers, because a precompiled header is only used by compiles with
# the same flags: one for tests/lib/ (GoogleTest, Abseil, the standard
# library) and one for the tests that link gRPC (built with -pthread).
#
# Off by default under ccache, which cannot cache a compile that uses a
# precompiled header unless its sloppiness settings allow it; on
# otherwise (CI builds from scratch). GCC silently parses the headers
# again when a precompiled header does not fit a compile's flags;
# -Winvalid-pch, which CMake adds, says so in the build log.
if(CMAKE_CXX_COMPILER_LAUNCHER MATCHES "ccache")
  set(collide_test_pch_default OFF)
else()
  set(collide_test_pch_default ON)
endif()
option(COLLIDE_TEST_PCH "Precompile the headers the test executables share"
  ${collide_test_pch_default})

# Gives every GoogleTest executable defined in `dir` or below it, except
# under tests/fuzz/ and tests/install/, one of the two precompiled headers.
# Call it once, after the test directories are added.
function(collide_use_test_pch dir)
  if(NOT COLLIDE_TEST_PCH)
    return()
  endif()
  set(host_source ${CMAKE_CURRENT_BINARY_DIR}/collide_test_pch_host.cc)
  file(CONFIGURE OUTPUT ${host_source}
    CONTENT "// Compiled only to build a precompiled header.\n")

  add_library(collide_test_pch_lib OBJECT ${host_source})
  target_link_libraries(collide_test_pch_lib PRIVATE collide_geometry
    collide_test_support GTest::gtest)
  target_precompile_headers(collide_test_pch_lib PRIVATE
    <algorithm> <cmath> <cstdint> <limits> <optional> <string> <vector>
    [["absl/status/statusor.h"]] [["absl/strings/str_cat.h"]]
    [["absl/types/span.h"]] [["gtest/gtest.h"]])

  add_library(collide_test_pch_service OBJECT ${host_source})
  target_link_libraries(collide_test_pch_service PRIVATE
    collide_server_runtime collide_health_proto collide_test_support
    GTest::gmock GTest::gtest)
  target_precompile_headers(collide_test_pch_service PRIVATE
    <memory> <string> <thread> <vector>
    [["absl/status/statusor.h"]] [["absl/strings/str_cat.h"]]
    [["gmock/gmock.h"]] [["gtest/gtest.h"]] [["grpcpp/grpcpp.h"]]
    [["collide/v1/collision_service.grpc.pb.h"]]
    [["collide/v1/level_service.grpc.pb.h"]])

  set(dirs ${dir})
  while(dirs)
    list(POP_FRONT dirs current)
    get_property(subdirs DIRECTORY ${current} PROPERTY SUBDIRECTORIES)
    list(APPEND dirs ${subdirs})
    if(current MATCHES "/tests/(fuzz|install)(/|$)")
      continue()
    endif()
    get_property(targets DIRECTORY ${current} PROPERTY BUILDSYSTEM_TARGETS)
    foreach(target IN LISTS targets)
      get_target_property(type ${target} TYPE)
      get_target_property(links ${target} LINK_LIBRARIES)
      if(NOT type STREQUAL "EXECUTABLE" OR NOT links MATCHES "GTest::")
        continue()
      endif()
      if(current MATCHES "/tests/lib(/|$)")
        target_precompile_headers(${target} REUSE_FROM collide_test_pch_lib)
      else()
        target_precompile_headers(${target} REUSE_FROM
          collide_test_pch_service)
      endif()
    endforeach()
  endwhile()
endfunction()
