package collide

import collidev1 "github.com/collide-dev/collide/client/go/collidev1"

// Vec is the point or vector (x, y).
func Vec(x, y float64) *collidev1.Vec2 { return &collidev1.Vec2{X: x, Y: y} }

// A ShapeOption sets a level shape's user data, its side of the two-way
// filter (CategoryBits, MaskBits, Group) or OneSided.
type ShapeOption interface {
	applyShape(*collidev1.Shape)
}

type shapeOption func(*collidev1.Shape)

func (o shapeOption) applyShape(shape *collidev1.Shape) { o(shape) }

// UserData is the caller's value a hit on the shape reports.
func UserData(value uint64) ShapeOption {
	return shapeOption(func(shape *collidev1.Shape) { shape.UserData = value })
}

// OneSided makes a segment or polyline block only what moves into its
// front, the left of p1 -> p2 (of each polyline segment's vertex i -> i +
// 1; y up, so a platform drawn left to right faces up and a mover rising
// through it from below passes). The server refuses it on other shapes,
// naming shapes[i].one_sided.
func OneSided() ShapeOption {
	return shapeOption(func(shape *collidev1.Shape) { shape.OneSided = true })
}

func shape(id uint64, options []ShapeOption) *collidev1.Shape {
	result := &collidev1.Shape{Id: id}
	for _, option := range options {
		option.applyShape(result)
	}
	return result
}

// Segment is a segment from p1 to p2 (no inside).
func Segment(id uint64, p1, p2 *collidev1.Vec2,
	options ...ShapeOption) *collidev1.Shape {
	result := shape(id, options)
	result.Geometry = &collidev1.Shape_Segment{
		Segment: &collidev1.Segment{P1: p1, P2: p2}}
	return result
}

// Polyline is a chain of segments through vertices, back to the first when
// closed (no inside, even closed).
func Polyline(id uint64, vertices []*collidev1.Vec2, closed bool,
	options ...ShapeOption) *collidev1.Shape {
	result := shape(id, options)
	result.Geometry = &collidev1.Shape_Polyline{
		Polyline: &collidev1.Polyline{Vertices: vertices, Closed: closed}}
	return result
}

// Polygon is a solid polygon, convex or concave, either winding.
func Polygon(id uint64, vertices []*collidev1.Vec2,
	options ...ShapeOption) *collidev1.Shape {
	result := shape(id, options)
	result.Geometry = &collidev1.Shape_Polygon{Polygon: PolygonOf(vertices...)}
	return result
}

// Circle is a solid disc.
func Circle(id uint64, center *collidev1.Vec2, radius float64,
	options ...ShapeOption) *collidev1.Shape {
	result := shape(id, options)
	result.Geometry = &collidev1.Shape_Circle{Circle: CircleOf(center, radius)}
	return result
}

// Box is a solid rectangle of halfExtents around center, turned
// counter-clockwise by angleRadians.
func Box(id uint64, center, halfExtents *collidev1.Vec2, angleRadians float64,
	options ...ShapeOption) *collidev1.Shape {
	result := shape(id, options)
	result.Geometry = &collidev1.Shape_Box{Box: &collidev1.Box{
		Center: center, HalfExtents: halfExtents, AngleRadians: angleRadians}}
	return result
}

// Capsule is a solid stadium: the points within radius of segment p1-p2.
func Capsule(id uint64, p1, p2 *collidev1.Vec2, radius float64,
	options ...ShapeOption) *collidev1.Shape {
	result := shape(id, options)
	result.Geometry = &collidev1.Shape_Capsule{Capsule: CapsuleOf(p1, p2, radius)}
	return result
}

// Level is a level holding shapes; its cell size is left to the server.
func Level(id string, shapes ...*collidev1.Shape) *collidev1.Level {
	return &collidev1.Level{Id: id, Shapes: shapes}
}

// CircleOf is the bare disc a circle cast moves.
func CircleOf(center *collidev1.Vec2, radius float64) *collidev1.Circle {
	return &collidev1.Circle{Center: center, Radius: radius}
}

// CapsuleOf is the bare capsule a capsule cast moves.
func CapsuleOf(p1, p2 *collidev1.Vec2, radius float64) *collidev1.Capsule {
	return &collidev1.Capsule{P1: p1, P2: p2, Radius: radius}
}

// PolygonOf is the bare polygon a polygon cast moves (strictly convex, 3 to
// 8 vertices, for queries).
func PolygonOf(vertices ...*collidev1.Vec2) *collidev1.Polygon {
	return &collidev1.Polygon{Vertices: vertices}
}
