module github.com/collide-dev/collide/client/go

go 1.19

// The lowest versions this module is built and tested with: those Debian 12
// ships (golang-google-grpc-dev, golang-google-protobuf-dev and friends);
// genproto is the version gRPC 1.33.3 itself requires.
require (
	google.golang.org/grpc v1.33.3
	google.golang.org/protobuf v1.28.1
)

require (
	github.com/golang/protobuf v1.5.2 // indirect
	golang.org/x/net v0.7.0 // indirect
	golang.org/x/sys v0.5.0 // indirect
	golang.org/x/text v0.7.0 // indirect
	google.golang.org/genproto v0.0.0-20200526211855-cb27e3aa2013 // indirect
)
