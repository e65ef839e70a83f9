package sqlite

// FillListBudget takes every slot of the store's list budget and returns
// the function that gives them back.
func FillListBudget(s *Store) (release func()) { return s.lists.Fill() }
