// A client for both collide services: level management on the admin
// listener, queries (and level reads) on the query port.
//
//   const client = new collide.Client('127.0.0.1:50051', {
//     adminAddress: '127.0.0.1:50052', adminTokenFile: 'admin_token'});
//   await client.putLevel(collide.level('demo', [
//     collide.segment(1, [10, -5], [10, 5])]));
//   const [result] = await client.run('demo', [collide.ray([0, 0], [20, 0])]);
//   client.close();
//
// Every unary call has a deadline (timeoutMs). A failed call rejects with
// grpc-js's ServiceError (code, details); a query the server refused comes
// back in its result (result.status.code !== 0, the message naming the
// field) while the rest of the batch is answered: see check().
'use strict';

const connection = require('./connection');
const {levelName, numbered} = require('./names');
const {v1} = require('./proto');
const {QueryStream} = require('./stream');

class Client {
  // `address`: the query port (host:port). options.adminAddress: the admin
  // listener (default: the query port, for a server run with --admin_listen
  // equal to --listen). options.tls ({caFile, certFile, keyFile,
  // serverName}) applies to both. options.adminToken or adminTokenFile: the
  // bearer token admin calls carry. options.timeoutMs: each unary call's
  // deadline (default 10000).
  constructor(address = '127.0.0.1:50051', options = {}) {
    this.timeoutMs = options.timeoutMs ?? 10000;
    const credentials = connection.credentials(options.tls);
    const channelOptions = connection.channelOptions(options.tls);
    this._adminToken =
        connection.readToken(options.adminToken, options.adminTokenFile);
    // The generated grpc-js clients, for calls the helpers do not cover.
    this.collisions =
        new v1.CollisionService(address, credentials, channelOptions);
    this.levels = new v1.LevelService(address, credentials, channelOptions);
    this.admin = options.adminAddress ?
        new v1.LevelService(options.adminAddress, credentials, channelOptions) :
        this.levels;
  }

  // Closes both channels; calls still in flight are cancelled.
  close() {
    if (this.admin !== this.levels) this.admin.close();
    this.levels.close();
    this.collisions.close();
  }

  _unary(stub, method, request, metadata) {
    return new Promise((resolve, reject) => {
      stub[method](
          request, metadata, {deadline: Date.now() + this.timeoutMs},
          (error, response) => error ? reject(error) : resolve(response));
    });
  }

  _write(method, request) {
    return this._unary(
        this.admin, method, request,
        connection.tokenMetadata(this._adminToken));
  }

  _read(stub, method, request) {
    return this._unary(stub, method, request, connection.readMetadata());
  }

  // Levels.

  // Puts `content` as options.level (default: levels/{content.id});
  // options.expectedVersion > 0: only if the level is at that version.
  // Resolves with the level's summary.
  async putLevel(content, options = {}) {
    const response = await this._write('PutLevel', {
      level: levelName(options.level || content.id),
      content,
      expected_version: options.expectedVersion ?? 0,
    });
    return response.summary;
  }

  // Adds or replaces `upserts` and removes `removeIds`, atomically.
  async patchLevel(level, upserts = [], removeIds = [], options = {}) {
    const response = await this._write('PatchLevel', {
      level: levelName(level),
      upserts: Array.from(upserts),
      remove_ids: Array.from(removeIds),
      expected_version: options.expectedVersion ?? 0,
    });
    return response.summary;
  }

  // Deletes the level; resolves with the version it had (a decimal string).
  async deleteLevel(level, options = {}) {
    const response = await this._write('DeleteLevel', {
      level: levelName(level),
      expected_version: options.expectedVersion ?? 0,
    });
    return response.deleted_version;
  }

  async listLevels() {
    return (await this._read(this.levels, 'ListLevels', {})).levels;
  }

  async describeLevel(level) {
    const response = await this._read(
        this.levels, 'DescribeLevel', {level: levelName(level)});
    return response.summary;
  }

  async getLevel(level) {
    const response =
        await this._read(this.levels, 'GetLevel', {level: levelName(level)});
    return response.content;
  }

  // Queries.

  // One batch in one unary call (retried by the service config on a
  // drain); resolves with the results in the order of `queries`.
  async run(level, queries) {
    const response = await this._read(this.collisions, 'RunQueries', {
      level: levelName(level),
      queries: numbered(queries),
    });
    return response.results;
  }

  // A QueryStream on `level` with up to options.window (default 4) batches
  // in flight; options.timeoutMs: each of its calls' deadline (default
  // none).
  stream(level, options = {}) {
    return new QueryStream(this.collisions, levelName(level), options);
  }
}

module.exports = {Client};
