// The collide.v1 services, loaded at run time from the .proto files the
// package carries (proto/, copied in by `npm run build`).
'use strict';

const path = require('path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const PROTO_DIR = path.join(__dirname, '..', 'proto');

// The message shapes every collide caller sees, and the options the
// package's TypeScript declarations are generated with. keepCase: field
// names as in the .proto (request_id). longs: String: uint64 ids and int64
// versions arrive as decimal strings (they may not fit a number; numbers
// may be sent). enums: String: enum values arrive by name. defaults: unset
// scalars read as zero and unset messages as null (an OK status is null).
// oneofs: a field names the member of each oneof that is set
// (result.result === 'cast').
const LOADER_OPTIONS = Object.freeze({
  keepCase: true,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
});

const definition = protoLoader.loadSync(
    ['collide/v1/collision_service.proto', 'collide/v1/level_service.proto'],
    {...LOADER_OPTIONS, includeDirs: [PROTO_DIR]});

// The grpc-js package object: v1.CollisionService and v1.LevelService are
// client constructors (address, credentials, options).
const v1 = grpc.loadPackageDefinition(definition).collide.v1;

module.exports = {
  PROTO_DIR,
  LOADER_OPTIONS,
  v1
};
