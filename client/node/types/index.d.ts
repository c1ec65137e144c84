// Declarations of collide-client's helpers (lib/), written by hand in terms
// of the collide.v1 message types generated from the protos at build time
// (generated/v1.d.ts). What a helper returns is what the client sends:
// the input types (v1.Query), every field optional; what the server answers
// is the output type (v1.QueryResult__Output): 64-bit integers as decimal
// strings, enums by name, message fields the server left unset as null.

import type * as grpc from '@grpc/grpc-js';
import { v1 } from '../generated/v1';

export { v1 };

/** The package version, the collide project's version. */
export declare const version: string;
/** The service config (JSON) the client's channels carry. */
export declare const SERVICE_CONFIG: string;
/** The @grpc/proto-loader options the package loads the protos with. */
export declare const LOADER_OPTIONS: {
  readonly keepCase: true;
  readonly longs: StringConstructor;
  readonly enums: StringConstructor;
  readonly defaults: true;
  readonly oneofs: true;
};
/** The folder holding collide/v1/*.proto. */
export declare const PROTO_DIR: string;
/** New stream calls in a row that may end before answering anything. */
export declare const MAX_REOPENS: number;

/** A point: [x, y] or {x, y}, in level units. */
export type Point = readonly [number, number] | v1.Vec2;
/** A disc: [center, radius] or the message. */
export type CircleLike = readonly [Point, number] | v1.Circle;
/** A capsule: [p1, p2, radius] or the message. */
export type CapsuleLike = readonly [Point, Point, number] | v1.Capsule;
/** A polygon: its points in order, or the message. */
export type PolygonLike = readonly Point[] | v1.Polygon;
/** A uint64 id or bit mask: a number, or a decimal string past 2^53. */
export type Uint64 = number | string;

/** "arena" and "levels/arena" both name the level levels/arena. */
export declare function levelName(level: string): string;

// Levels and shapes.

export interface ShapeOptions {
  /** Opaque to collide; returned with every result naming the shape. */
  userData?: Uint64;
  /** The shape's categories, which a query's maskBits must share; unset: 1
   * (the default category). */
  categoryBits?: Uint64;
  /** The query categories the shape blocks, which a query's categoryBits
   * must share; unset: all bits. */
  maskBits?: Uint64;
  /** Box2D's group index: a shape and a query of the same positive group
   * always meet, of the same negative group never; 0 (default): none. */
  group?: number;
}

/** Segments and polylines only. */
export interface OneSidedOption {
  /** Block only what moves into the front, the left of p1 -> p2 (y up: a
   * platform drawn left to right faces up). Default false: two-sided. */
  oneSided?: boolean;
}

/** A Vec2 from [x, y] ({x, y} is returned as it is). */
export declare function vec(point: Point): v1.Vec2;
/** A segment from p1 to p2 (no inside). */
export declare function segment(
    id: Uint64, p1: Point, p2: Point,
    options?: ShapeOptions & OneSidedOption): v1.Shape;
/** A chain of segments through `vertices` (no inside, even when closed). */
export declare function polyline(
    id: Uint64, vertices: Iterable<Point>,
    options?: ShapeOptions & OneSidedOption & { closed?: boolean }):
    v1.Shape;
/** A solid polygon, convex or concave, either winding. */
export declare function polygon(
    id: Uint64, vertices: Iterable<Point>, options?: ShapeOptions): v1.Shape;
/** A solid disc. */
export declare function circle(
    id: Uint64, center: Point, radius: number,
    options?: ShapeOptions): v1.Shape;
/** A solid rectangle turned counter-clockwise by angleRadians. */
export declare function box(
    id: Uint64, center: Point, halfExtents: Point,
    options?: ShapeOptions & { angleRadians?: number }): v1.Shape;
/** A solid stadium: the points within `radius` of the segment p1-p2. */
export declare function capsule(
    id: Uint64, p1: Point, p2: Point, radius: number,
    options?: ShapeOptions): v1.Shape;
/** A Level holding `shapes`; cellSize 0 (default): the server chooses. */
export declare function level(
    id: string, shapes: v1.Shape[],
    options?: { cellSize?: number; yAxis?: v1.YAxis }): v1.Level;
export declare function circleOf(center: Point, radius: number): v1.Circle;
export declare function capsuleOf(
    p1: Point, p2: Point, radius: number): v1.Capsule;
export declare function polygonOf(vertices: Iterable<Point>): v1.Polygon;

// Queries.

export interface FilterOptions {
  /** The shape categories that count (default all bits). */
  maskBits?: Uint64;
  /** The query's own categories, which a shape's maskBits must share
   * (default 1). */
  categoryBits?: Uint64;
  /** Box2D's group index: a shape of the same positive group always
   * counts, of the same negative group never; 0 (default): none. */
  group?: number;
  /** Shape ids to skip. */
  ignoreIds?: Iterable<Uint64>;
}

export interface CastOptions extends FilterOptions {
  /** The share of the translation to sweep, in [0, 1] (default 1). */
  maxFraction?: number;
  /** Every shape hit, sorted by fraction then id, not only the first. */
  allHits?: boolean;
  /** Stop this far before contact (level units). */
  targetDistance?: number;
  /** With allHits: at most this many hits (0: the server's limit). */
  maxHits?: number;
}

/** Exactly one of circle, capsule, polygon. */
export type OneShape =
    | { circle: CircleLike; capsule?: undefined; polygon?: undefined }
    | { capsule: CapsuleLike; circle?: undefined; polygon?: undefined }
    | { polygon: PolygonLike; circle?: undefined; capsule?: undefined };

export declare function queryFilter(options?: FilterOptions): v1.QueryFilter;
export declare function castOptions(options?: CastOptions): v1.CastOptions;
/** A point moving from origin to origin + translation. */
export declare function ray(
    origin: Point, translation: Point, options?: CastOptions): v1.Query;
/** A disc moving by translation. */
export declare function circleCast(
    circle: CircleLike, translation: Point, options?: CastOptions): v1.Query;
/** A capsule moving by translation. */
export declare function capsuleCast(
    capsule: CapsuleLike, translation: Point, options?: CastOptions): v1.Query;
/** A strictly convex polygon (3 to 8 vertices) moving by translation. */
export declare function polygonCast(
    polygon: PolygonLike, translation: Point, options?: CastOptions): v1.Query;
/** The shapes one shape at rest touches or overlaps. */
export declare function overlap(
    options: OneShape & FilterOptions & { maxResults?: number }): v1.Query;
/** The level point nearest `point`, within maxDistance if given. */
export declare function closestPoint(
    point: Point,
    options?: FilterOptions & { maxDistance?: number }): v1.Query;
/** May a mover (at its start pose) go by translation in one step? */
export declare function validateMove(
    translation: Point,
    options: OneShape & FilterOptions &
        { skin?: number; maxSlideIterations?: number }): v1.Query;
/** A shot's target: its hitbox at the start of the tick and its motion. */
export declare function target(
    id: Uint64, options: OneShape & { translation?: Point }): v1.ShotTarget;
/** What a shot (a point, or a disc of radius) meets first. */
export declare function validateShot(
    origin: Point, translation: Point, targets: Iterable<v1.ShotTarget>,
    options?: FilterOptions & { radius?: number }): v1.Query;

// Line of sight (server-side fog of war).

/** A view cone: [direction, halfAngleRadians] or the message. */
export type ConeLike = readonly [Point, number] | v1.ViewCone;
/** A visibility target: a point, a disc (seen when its centre is), or the
 * message. */
export type VisibilityTargetLike =
    | Point | readonly [Point, number] | v1.Circle | v1.VisibilityTarget;

export interface ViewerOptions {
  /** How far it sees (level units; a target at exactly range is in view);
   * unset: unlimited. */
  range?: number;
  /** Which way it sees; unset: every direction. */
  cone?: ConeLike;
}

/** The cone around `direction` opening halfAngleRadians (in [0, pi])
 * either side; a target exactly on an edge is in view. */
export declare function viewCone(
    direction: Point, halfAngleRadians: number): v1.ViewCone;
/** A viewer at `position`. */
export declare function viewer(
    position: Point, options?: ViewerOptions): v1.Viewer;
/** A VisibilityTarget from a point or a disc. */
export declare function visibilityTarget(
    target: VisibilityTargetLike): v1.VisibilityTarget;
/** Which of `targets` each of `viewers` (a Viewer, or a bare position: all
 * round, unlimited range) sees past the level's occluders (those passing
 * the filter). */
export declare function visibility(
    viewers: Iterable<v1.Viewer | Point>,
    targets: Iterable<VisibilityTargetLike>,
    options?: FilterOptions & { targetRule?: v1.TargetRule }): v1.Query;
/** The region seen from `position` within `range`, as a polygon; arcs as
 * chords of at most maxArcAngleRadians (0: the server's 0.2). */
export declare function visibilityPolygon(
    position: Point, range: number,
    options?: FilterOptions & { maxArcAngleRadians?: number }): v1.Query;
/** Per viewer, the indices of the targets it sees, ascending (throws
 * QueryRefused for a refused query). With no targets the answer holds no
 * rows: viewerCount empty arrays. */
export declare function visibleSets(
    result: v1.QueryResult__Output | v1.VisibilityResult__Output,
    viewerCount?: number): number[][];
/** Whether viewer viewerIndex sees target targetIndex (throws RangeError
 * for indices outside the answer). */
export declare function sees(
    result: v1.QueryResult__Output | v1.VisibilityResult__Output,
    viewerIndex: number, targetIndex: number): boolean;
/** A visibility polygon's vertices as [x, y], counter-clockwise from +x. */
export declare function polygonPoints(
    result: v1.QueryResult__Output | v1.VisibilityPolygonResult__Output):
    Array<[number, number]>;

// Results and errors.

/** A failed call: grpc-js's error, with the status code and details. */
export type ServiceError = grpc.ServiceError;

/** A query's result carried a non-OK status. */
export declare class QueryRefused extends Error {
  readonly result: v1.QueryResult__Output;
  constructor(result: v1.QueryResult__Output);
}
/** The server refused a whole batch (unknown level, stale hash, full). */
export declare class BatchRefused extends Error {
  readonly response: v1.StreamQueriesResponse__Output;
  constructor(response: v1.StreamQueriesResponse__Output);
}
/** submit() on a closed or failed stream; a stream ended unanswered. */
export declare class StreamClosed extends Error {
  constructor(message: string);
}
/** The result, or a thrown QueryRefused when the server refused it. */
export declare function check(
    result: v1.QueryResult__Output): v1.QueryResult__Output;

/** A gRPC status code's name (14: "UNAVAILABLE"). */
export declare function statusName(code: number): string;

// The client.

export interface Tls {
  /** PEM file of the CAs that sign the server's certificate (unset: the
   * system's roots). */
  caFile?: string;
  /** PEM client certificate and key, together, for mutual TLS. */
  certFile?: string;
  keyFile?: string;
  /** The name the server's certificate carries when it does not name the
   * address. */
  serverName?: string;
}

export interface ClientOptions {
  /** The admin listener (default: the query port). */
  adminAddress?: string;
  /** TLS for both connections (unset: plaintext). */
  tls?: Tls;
  /** The bearer token admin calls carry, or a file whose first line it is. */
  adminToken?: string;
  adminTokenFile?: string;
  /** Each unary call's deadline (default 10000). */
  timeoutMs?: number;
}

export interface StreamOptions {
  /** Batches in flight at most (default 4). */
  window?: number;
  /** Each stream call's deadline from its start (default none). */
  timeoutMs?: number;
}

export declare class Client {
  /** `address`: the query port, host:port (default 127.0.0.1:50051). */
  constructor(address?: string, options?: ClientOptions);
  readonly timeoutMs: number;
  /** The generated grpc-js clients, for calls the helpers do not cover. */
  readonly collisions: v1.CollisionServiceClient;
  readonly levels: v1.LevelServiceClient;
  readonly admin: v1.LevelServiceClient;
  /** Closes the channels; calls in flight are cancelled. */
  close(): void;

  /** Puts `content` as options.level (default levels/{content.id}). */
  putLevel(content: v1.Level,
           options?: { level?: string; expectedVersion?: Uint64 }):
      Promise<v1.LevelSummary__Output>;
  /** Adds or replaces `upserts` and removes `removeIds`, atomically. */
  patchLevel(level: string, upserts?: Iterable<v1.Shape>,
             removeIds?: Iterable<Uint64>,
             options?: { expectedVersion?: Uint64 }):
      Promise<v1.LevelSummary__Output>;
  /** Deletes the level; resolves with the version it had. */
  deleteLevel(level: string, options?: { expectedVersion?: Uint64 }):
      Promise<string>;
  listLevels(): Promise<v1.LevelSummary__Output[]>;
  describeLevel(level: string): Promise<v1.LevelSummary__Output>;
  getLevel(level: string): Promise<v1.Level__Output>;

  /** One batch in one unary call; the results in the order of `queries`. */
  run(level: string, queries: Iterable<v1.Query>):
      Promise<v1.QueryResult__Output[]>;
  /** A QueryStream on `level`. */
  stream(level: string, options?: StreamOptions): QueryStream;
}

/** A batching StreamQueries call that resends its unanswered batches on a
 * new call when a draining server ends it (UNAVAILABLE, CANCELLED). */
export declare class QueryStream {
  constructor(stub: v1.CollisionServiceClient, level: string,
              options?: StreamOptions);
  readonly window: number;
  /** New calls opened to resend unanswered batches, in all. */
  readonly reopens: number;
  /** Sends one batch once fewer than `window` are in flight. */
  submit(queries: Iterable<v1.Query>):
      Promise<v1.StreamQueriesResponse__Output>;
  /** submit() and wait; rejects with BatchRefused for a refused batch. */
  query(queries: Iterable<v1.Query>): Promise<v1.QueryResult__Output[]>;
  /** Waits for every batch submitted, then ends the call. */
  close(): Promise<void>;
}
