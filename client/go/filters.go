package collide

import collidev1 "github.com/collide-dev/collide/client/go/collidev1"

// A TwoWayOption is a field of the two-way filter, which a query and a
// level shape both carry (Box2D's b2Filter): a query counts a shape only
// when the query's MaskBits share a bit with the shape's CategoryBits and
// the shape's MaskBits share a bit with the query's CategoryBits, except
// that a query and a shape of the same nonzero Group always meet when the
// group is positive and never when it is negative. Given to a query
// builder it sets the query's QueryFilter; given to a shape builder, the
// shape's fields. Unset fields keep the server's defaults, today's
// one-way behaviour: category 1 and a mask of all bits on both sides, no
// group.
type TwoWayOption interface {
	FilterOption
	ShapeOption
}

type twoWayOption struct {
	query func(*collidev1.QueryFilter)
	shape func(*collidev1.Shape)
}

func (o twoWayOption) applyFilter(filter *collidev1.QueryFilter) {
	o.query(filter)
}

func (o twoWayOption) applyCast(options *collidev1.CastOptions) {
	filterOption(o.query).applyCast(options)
}

func (o twoWayOption) applyShape(shape *collidev1.Shape) { o.shape(shape) }

// CategoryBits is the categories a query or shape belongs to (default 1):
// a shape's are matched by a query's MaskBits, a query's by a shape's.
func CategoryBits(bits uint64) TwoWayOption {
	return twoWayOption{
		query: func(f *collidev1.QueryFilter) { f.CategoryBits = &bits },
		shape: func(s *collidev1.Shape) { s.CategoryBits = &bits }}
}

// MaskBits is the categories a query counts or a shape blocks (default
// all bits): a query's match shapes' CategoryBits, a shape's match
// queries'.
func MaskBits(bits uint64) TwoWayOption {
	return twoWayOption{
		query: func(f *collidev1.QueryFilter) { f.MaskBits = &bits },
		shape: func(s *collidev1.Shape) { s.MaskBits = &bits }}
}

// Group is Box2D's group index (default 0, no group): a query and a shape
// of the same positive group always meet, of the same negative group never,
// whatever their bits.
func Group(group int32) TwoWayOption {
	return twoWayOption{
		query: func(f *collidev1.QueryFilter) { f.Group = group },
		shape: func(s *collidev1.Shape) { s.Group = group }}
}
