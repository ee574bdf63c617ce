package comment

import "github.com/planpr/planpr/render/marker"

// The marker of planpr's comments (see package marker).
type Marker = marker.Marker

var (
	MarkerField  = marker.Field
	ParseMarker  = marker.Parse
	CommentParts = marker.CommentParts
)
