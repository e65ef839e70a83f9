package catalog_test

import (
	"testing"
	"time"

	"catalog/internal/catalog"
)

func day(y int, m time.Month, d int) catalog.HitDay {
	return catalog.HitDayOf(time.Date(y, m, d, 0, 0, 0, 0, time.UTC))
}

// The periods of contract 12: the UTC day, the ISO week from Monday and
// the month, including days before 1970.
func TestHitDays(t *testing.T) {
	if got := catalog.HitDayOf(time.Date(1970, 1, 1, 23, 59, 59, 0, time.UTC)); got != 0 {
		t.Errorf("1970-01-01 23:59:59: day %d, want 0", got)
	}
	if got := catalog.HitDayOf(time.Date(1970, 1, 2, 0, 0, 0, 0, time.FixedZone("UTC+7", 7*3600))); got != 0 {
		t.Errorf("midnight at UTC+7 (17:00 UTC the day before): day %d, want 0", got)
	}
	if got := catalog.HitDayOf(time.Date(1969, 12, 31, 23, 0, 0, 0, time.UTC)); got != -1 {
		t.Errorf("1969-12-31: day %d, want -1", got)
	}
	for _, tt := range []struct {
		d, week, month catalog.HitDay
	}{
		{day(2026, 11, 27), day(2026, 11, 23), day(2026, 11, 1)}, // a Friday
		{day(2026, 11, 23), day(2026, 11, 23), day(2026, 11, 1)}, // a Monday is its own week's start
		{day(2026, 11, 29), day(2026, 11, 23), day(2026, 11, 1)}, // Sunday ends the ISO week
		{day(2027, 1, 1), day(2026, 12, 28), day(2027, 1, 1)},    // a week across the year
		{day(2024, 2, 29), day(2024, 2, 26), day(2024, 2, 1)},
		{day(1970, 1, 1), day(1969, 12, 29), day(1970, 1, 1)},
		{day(1969, 12, 31), day(1969, 12, 29), day(1969, 12, 1)},
	} {
		if got := tt.d.WeekStart(); got != tt.week {
			t.Errorf("WeekStart(%d) = %d, want %d", tt.d, got, tt.week)
		}
		if got := tt.d.MonthStart(); got != tt.month {
			t.Errorf("MonthStart(%d) = %d, want %d", tt.d, got, tt.month)
		}
	}
}

// A read serves the count of a period that has ended as 0, and the
// total always.
func TestHitsAt(t *testing.T) {
	h := catalog.Hits{Total: 50, Day: 3, Week: 10, Month: 20, On: day(2026, 11, 25)} // a Wednesday
	for _, tt := range []struct {
		name  string
		today catalog.HitDay
		want  catalog.Hits
	}{
		{"same day", day(2026, 11, 25), h},
		{"a day before (another instance's clock)", day(2026, 11, 24), h},
		{"next day", day(2026, 11, 26), catalog.Hits{Total: 50, Week: 10, Month: 20, On: h.On}},
		{"next Monday", day(2026, 11, 30), catalog.Hits{Total: 50, Month: 20, On: h.On}},
		{"next month", day(2026, 12, 1), catalog.Hits{Total: 50, On: h.On}},
	} {
		if got := h.At(tt.today); got != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
}
