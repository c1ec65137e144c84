// Package collide is a client for the collide 2D collision query service:
// builders for levels and queries, a Client for the query and admin
// services (TLS, the admin token, a deadline on every call, the retry
// policy every collide caller should use) and a QueryStream that keeps
// batches in flight and resends the unanswered ones when a server drains.
// The generated messages and stubs are in package collidev1.
//
//	client, err := collide.Dial("127.0.0.1:50051", collide.Options{
//		AdminAddress: "127.0.0.1:50052", AdminTokenFile: "admin_token"})
//	...
//	summary, err := client.PutLevel(ctx, collide.Level("demo",
//		collide.Segment(1, collide.Vec(10, -5), collide.Vec(10, 5))))
//	results, err := client.Run(ctx, "demo",
//		collide.Ray(collide.Vec(0, 0), collide.Vec(20, 0)))
//
// Coordinates and lengths are level units, angles radians. Every builder
// returns the collidev1 message, so a field the helpers leave out can still
// be set on it.
package collide

// Version is the collide project version this package belongs to.
const Version = "0.9.0"
