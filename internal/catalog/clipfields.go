package catalog

// The clip field table: the stored text fields of a clip, in canonical
// order (contract 3.1). The engines' column lists, scans and values come
// from it; the create and patch rules stay in ClipInput.Apply.
var clipColumns = func() []ClipColumn {
	fields := []struct {
		name string
		text func(c *Clip) *string
	}{
		{"title", func(c *Clip) *string { return &c.Title }},
		{"iframe_url", func(c *Clip) *string { return &c.IframeURL }},
		{"cover_url", func(c *Clip) *string { return &c.CoverURL }},
		{"actor", func(c *Clip) *string { return &c.Actor }},
		{"studio", func(c *Clip) *string { return &c.Studio }},
		{"platform", func(c *Clip) *string { return &c.Platform }},
		{"notes", func(c *Clip) *string { return &c.Notes }},
	}
	var cols []ClipColumn
	for _, f := range fields {
		text := f.text
		cols = append(cols, ClipColumn{Name: f.name,
			Dest:  func(c *Clip) any { return text(c) },
			Value: func(c *Clip) any { return *text(c) }})
		if f.name == "title" {
			// title_fold is what searches match, derived from the title
			// and never read back.
			cols = append(cols, ClipColumn{Name: "title_fold", Value: func(c *Clip) any { return Fold(c.Title) }})
		}
	}
	return cols
}()

// ClipColumn is one stored column of a clip.
type ClipColumn = Column[Clip]

// ClipColumns returns the stored columns of a clip besides id and
// created_at, in canonical order, title_fold after title. The result is
// the caller's to keep.
func ClipColumns() []ClipColumn { return append([]ClipColumn(nil), clipColumns...) }
