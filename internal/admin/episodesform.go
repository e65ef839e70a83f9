package admin

import (
	"net/http"
	"strconv"
	"strings"

	"catalog/internal/catalog"
	"catalog/internal/locale"
)

// The console edits a movie's episodes (contract 9) as one block per
// server: its name, and its episodes one a line as
// "NAME | EMBED URL | M3U8 URL". A "|" or "\" inside a value is written
// "\|" or "\\", so that every name an import accepts is shown and
// saved unchanged; any other backslash stands for itself. The form shows
// every server plus one empty block, so a server is added by filling
// that block and saving, and removed by emptying its block: no
// JavaScript needed.

// Form names of a server block: serverNameField+N and serverDataField+N.
const (
	serverNameField = "server_name."
	serverDataField = "server_data."
	episodeSep      = '|'
	episodeEscape   = '\\'
)

// episodeLines is the text of a server's episodes in the form.
func episodeLines(s catalog.Server) string {
	lines := make([]string, len(s.Episodes))
	for i, e := range s.Episodes {
		lines[i] = escapeEpisode(e.Name) + " | " + escapeEpisode(e.LinkEmbed) + " | " + escapeEpisode(e.LinkM3U8)
	}
	return strings.Join(lines, "\n")
}

var episodeEscaper = strings.NewReplacer(string(episodeEscape), string(episodeEscape)+string(episodeEscape),
	string(episodeSep), string(episodeEscape)+string(episodeSep))

// escapeEpisode writes a value of an episode line.
func escapeEpisode(v string) string { return episodeEscaper.Replace(v) }

// splitEpisodeLine reads an episode line into its name, embed URL and
// m3u8 URL: split at the first two "|" not escaped, with "\|" and "\\"
// read as "|" and "\". A "|" after the second one belongs to the m3u8
// URL, as a URL may hold one.
func splitEpisodeLine(line string) [3]string {
	var parts [3]string
	var b strings.Builder
	n := 0
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == episodeEscape && i+1 < len(line) && (line[i+1] == episodeSep || line[i+1] == episodeEscape):
			i++
			b.WriteByte(line[i])
		case c == episodeSep && n < 2:
			parts[n] = b.String()
			b.Reset()
			n++
		default:
			b.WriteByte(c)
		}
	}
	parts[n] = b.String()
	return parts
}

// episodesValues puts the form values of servers into v.
func episodesValues(v map[string]string, servers []catalog.Server) {
	for i, s := range servers {
		v[serverNameField+strconv.Itoa(i)] = s.Name
		v[serverDataField+strconv.Itoa(i)] = episodeLines(s)
	}
}

// serverBlocks is how many server blocks the form shows for values: one
// after the last one holding anything, within catalog.MaxServers.
func serverBlocks(values map[string]string) int {
	n := 0
	for i := range catalog.MaxServers {
		k := strconv.Itoa(i)
		if strings.TrimSpace(values[serverNameField+k]) != "" || strings.TrimSpace(values[serverDataField+k]) != "" {
			n = i + 1
		}
	}
	return min(n+1, catalog.MaxServers)
}

// serverBlock is one server of the movie form: its name, and its
// episodes in an editor of one line per episode, as wide as the page,
// never wrapping, with its lines numbered and counted (episode errors
// name their line).
type serverBlock struct {
	Number   int // from 1
	Name     formField
	Episodes formField
	Lines    int // the editor's lines, one at least
}

// Numbers are the editor's line numbers, 1 to Lines, as the gutter
// beside it shows them.
func (b serverBlock) Numbers() string {
	var s strings.Builder
	for n := range b.Lines {
		if n > 0 {
			s.WriteByte('\n')
		}
		s.WriteString(strconv.Itoa(n + 1))
	}
	return s.String()
}

// Rows is the editor's height in lines: its lines and one more, where
// the next episode goes and a sideways scroll bar may sit.
func (b serverBlock) Rows() int { return b.Lines + 1 }

// episodesForm is the server blocks of the form, in l's language.
func episodesForm(l *locale.Localizer, values, fieldErrors map[string]string) []serverBlock {
	var blocks []serverBlock
	for i := range serverBlocks(values) {
		k := strconv.Itoa(i)
		n := strconv.Itoa(i + 1)
		data := values[serverDataField+k]
		blocks = append(blocks, serverBlock{
			Number: i + 1,
			Name: formField{Name: serverNameField + k, Label: l.T("episodes.server_name", "N", n), Type: "text", Max: catalog.MaxServerNameRunes,
				Hint: l.T("episodes.server_name_hint"), Value: values[serverNameField+k], Error: fieldErrors[serverNameField+k]},
			Episodes: formField{Name: serverDataField + k, Label: l.T("episodes.server_data", "N", n), Type: "textarea", Max: catalog.MaxEpisodesBytes,
				Hint:  l.T("episodes.server_data_hint"),
				Value: data, Error: fieldErrors[serverDataField+k]},
			Lines: editorLines(data),
		})
	}
	return blocks
}

// editorLines is how many lines a textarea shows for text: a final
// newline ends a line rather than starting one, as an editor counts.
func editorLines(text string) int {
	text = strings.TrimSuffix(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	return strings.Count(text, "\n") + 1
}

// readEpisodesForm reads the server blocks of a posted form into
// servers, recording the raw values in values. at maps each server's
// index in servers to its block, and each episode to its line number,
// so that a field error can be shown beside its block.
func readEpisodesForm(r *http.Request, values map[string]string) ([]catalog.Server, []serverAt) {
	var servers []catalog.Server
	var at []serverAt
	for i := range catalog.MaxServers {
		k := strconv.Itoa(i)
		name, data := r.PostFormValue(serverNameField+k), r.PostFormValue(serverDataField+k)
		values[serverNameField+k], values[serverDataField+k] = name, data
		if strings.TrimSpace(name) == "" && strings.TrimSpace(data) == "" {
			continue
		}
		s := catalog.Server{Name: name}
		where := serverAt{block: i}
		for n, line := range strings.Split(strings.ReplaceAll(data, "\r\n", "\n"), "\n") {
			if strings.TrimSpace(line) == "" {
				continue
			}
			parts := splitEpisodeLine(line)
			s.Episodes = append(s.Episodes, catalog.Episode{Name: parts[0], LinkEmbed: parts[1], LinkM3U8: parts[2]})
			where.lines = append(where.lines, n+1)
		}
		servers = append(servers, s)
		at = append(at, where)
	}
	return servers, at
}

// serverAt is where a server of the form came from.
type serverAt struct {
	block int   // its block
	lines []int // the line of each of its episodes
}

// episodeFormErrors moves the field errors of Normalize about episodes
// ("episodes[1].server_data[4].link_m3u8") beside their blocks
// ("server_data.2": "line 5: link_m3u8 must be ...").
func episodeFormErrors(fields map[string]string, at []serverAt) {
	for key, msg := range fields {
		if !strings.HasPrefix(key, "episodes") {
			continue
		}
		delete(fields, key)
		rest := strings.TrimPrefix(key, "episodes")
		s, ok := index(&rest)
		if !ok || s >= len(at) {
			fields[serverDataField+"0"] = msg
			continue
		}
		block := strconv.Itoa(at[s].block)
		switch {
		case rest == ".server_name":
			fields[serverNameField+block] = msg
		case strings.HasPrefix(rest, ".server_data"):
			rest = strings.TrimPrefix(rest, ".server_data")
			if e, ok := index(&rest); ok && e < len(at[s].lines) {
				what := strings.TrimPrefix(rest, ".")
				if what != "" {
					what += " "
				}
				msg = "line " + strconv.Itoa(at[s].lines[e]) + ": " + what + msg
			}
			fields[serverDataField+block] = msg
		}
	}
}

// index reads a leading "[N]" off *s.
func index(s *string) (int, bool) {
	inner, rest, ok := strings.Cut(strings.TrimPrefix(*s, "["), "]")
	if !ok || !strings.HasPrefix(*s, "[") {
		return 0, false
	}
	n, err := strconv.Atoi(inner)
	if err != nil {
		return 0, false
	}
	*s = rest
	return n, true
}
