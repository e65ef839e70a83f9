package catalog

// ShortFieldsOnly reports whether fields needs none of the long columns.
func ShortFieldsOnly(fields FieldSet) bool { return fields&longFields == 0 }
