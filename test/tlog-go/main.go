// Command tlog-go checks an L2 transparency log with an implementation L2 did not write:
// golang.org/x/mod/sumdb/tlog and sumdb/note (as packaged by Debian, golang-golang-x-mod-dev).
//
// It fetches <base>/key and <base>/checkpoint, opens the checkpoint with note.Open under that key,
// rebuilds the root from the log's tiles with tlog.TreeHash over a tlog.TileHashReader (which
// authenticates every tile it reads against the root), proves and checks the inclusion of chosen
// entries (read from the entry bundles) and the consistency of chosen earlier trees whose roots
// the caller gives. sumdb names tiles tile/8/<L>/…; tlog-tiles, and L2, name them tile/<L>/….
//
// Usage: tlog-go [-indexes 0,1,255] [-old SIZE=BASE64ROOT,...] <base URL, e.g. http://127.0.0.1:8080/tlog>
// Prints "ok" and exits 0 when every check passes; prints the first failure and exits 1 otherwise.
package main

import (
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

const tileHeight = 8

func main() {
	indexes := flag.String("indexes", "", "comma-separated entry indexes whose inclusion to prove (default: first and last)")
	olds := flag.String("old", "", "comma-separated SIZE=BASE64ROOT of earlier trees whose consistency to prove")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: tlog-go [-indexes I,...] [-old SIZE=ROOT,...] <base URL>")
		os.Exit(2)
	}
	summary, err := check(strings.TrimSuffix(flag.Arg(0), "/"), *indexes, *olds)
	if err != nil {
		fmt.Fprintln(os.Stderr, "tlog-go: FAIL:", err)
		os.Exit(1)
	}
	fmt.Println("ok", summary)
}

func check(base, indexList, oldList string) (string, error) {
	vkey, err := get(base + "/key")
	if err != nil {
		return "", err
	}
	verifier, err := note.NewVerifier(strings.TrimSpace(string(vkey)))
	if err != nil {
		return "", fmt.Errorf("verifier key: %v", err)
	}
	msg, err := get(base + "/checkpoint")
	if err != nil {
		return "", err
	}
	opened, err := note.Open(msg, note.VerifierList(verifier))
	if err != nil {
		return "", fmt.Errorf("checkpoint: %v", err)
	}
	tree, err := parseCheckpoint(opened.Text, verifier.Name())
	if err != nil {
		return "", err
	}

	hashes := tlog.TileHashReader(tree, &tileReader{base: base})
	root, err := tlog.TreeHash(tree.N, hashes)
	if err != nil {
		return "", fmt.Errorf("tree hash from tiles: %v", err)
	}
	if root != tree.Hash {
		return "", fmt.Errorf("tiles give root %v, checkpoint says %v", root, tree.Hash)
	}

	proved, err := proveInclusions(base, tree, hashes, indexList)
	if err != nil {
		return "", err
	}
	consistent, err := proveConsistencies(tree, hashes, oldList)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("size=%d root=%v inclusion=%d consistency=%d", tree.N, tree.Hash, proved, consistent), nil
}

// parseCheckpoint reads a c2sp.org/tlog-checkpoint text: origin, size, base64 root.
func parseCheckpoint(text, origin string) (tlog.Tree, error) {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if len(lines) < 3 || lines[0] != origin {
		return tlog.Tree{}, fmt.Errorf("checkpoint is not for origin %q: %q", origin, text)
	}
	n, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil || n < 0 || strconv.FormatInt(n, 10) != lines[1] {
		return tlog.Tree{}, fmt.Errorf("checkpoint size %q", lines[1])
	}
	hash, err := tlog.ParseHash(lines[2])
	if err != nil {
		return tlog.Tree{}, fmt.Errorf("checkpoint root %q: %v", lines[2], err)
	}
	return tlog.Tree{N: n, Hash: hash}, nil
}

func proveInclusions(base string, tree tlog.Tree, hashes tlog.HashReader, list string) (int, error) {
	indexes, err := parseInts(list)
	if err != nil {
		return 0, err
	}
	if len(indexes) == 0 && tree.N > 0 {
		indexes = []int64{0, tree.N - 1}
	}
	for _, index := range indexes {
		entry, err := entryAt(base, tree.N, index)
		if err != nil {
			return 0, err
		}
		proof, err := tlog.ProveRecord(tree.N, index, hashes)
		if err != nil {
			return 0, fmt.Errorf("inclusion proof of %d: %v", index, err)
		}
		if err := tlog.CheckRecord(proof, tree.N, tree.Hash, index, tlog.RecordHash(entry)); err != nil {
			return 0, fmt.Errorf("entry %d: %v", index, err)
		}
	}
	return len(indexes), nil
}

func proveConsistencies(tree tlog.Tree, hashes tlog.HashReader, list string) (int, error) {
	count := 0
	for _, item := range strings.Split(list, ",") {
		if item == "" {
			continue
		}
		size, root, ok := strings.Cut(item, "=")
		n, err := strconv.ParseInt(size, 10, 64)
		if !ok || err != nil {
			return 0, fmt.Errorf("-old %q: want SIZE=BASE64ROOT", item)
		}
		want, err := tlog.ParseHash(root)
		if err != nil {
			return 0, fmt.Errorf("-old %q: %v", item, err)
		}
		got, err := tlog.TreeHash(n, hashes)
		if err != nil {
			return 0, fmt.Errorf("tree hash at %d: %v", n, err)
		}
		if got != want {
			return 0, fmt.Errorf("root at %d: tiles give %v, expected %v", n, got, want)
		}
		proof, err := tlog.ProveTree(tree.N, n, hashes)
		if err != nil {
			return 0, fmt.Errorf("consistency proof %d -> %d: %v", n, tree.N, err)
		}
		if err := tlog.CheckTree(proof, tree.N, tree.Hash, n, want); err != nil {
			return 0, fmt.Errorf("consistency %d -> %d: %v", n, tree.N, err)
		}
		count++
	}
	return count, nil
}

// entryAt reads entry index from its bundle: big-endian uint16 length, then the entry, for each.
func entryAt(base string, size, index int64) ([]byte, error) {
	if index < 0 || index >= size {
		return nil, fmt.Errorf("index %d is not in a tree of %d", index, size)
	}
	n := index >> tileHeight
	width := size - n<<tileHeight
	if width > 1<<tileHeight {
		width = 1 << tileHeight
	}
	path := tlogTilesPath(tlog.Tile{H: tileHeight, L: 0, N: n, W: int(width)}, "entries")
	bundle, err := get(base + "/" + path)
	if err != nil {
		return nil, err
	}
	var entries [][]byte
	for len(bundle) > 0 {
		if len(bundle) < 2 || len(bundle) < 2+(int(bundle[0])<<8|int(bundle[1])) {
			return nil, fmt.Errorf("%s: truncated entry bundle", path)
		}
		length := int(bundle[0])<<8 | int(bundle[1])
		entries = append(entries, bundle[2:2+length])
		bundle = bundle[2+length:]
	}
	if int64(len(entries)) != width {
		return nil, fmt.Errorf("%s: %d entries, want %d", path, len(entries), width)
	}
	return entries[index-n<<tileHeight], nil
}

// tlogTilesPath maps sumdb's tile/8/<L>/<N>[.p/<W>] to tlog-tiles' tile/<level>/<N>[.p/<W>].
func tlogTilesPath(t tlog.Tile, level string) string {
	sumdb := t.Path()
	prefix := fmt.Sprintf("tile/%d/%d/", tileHeight, t.L)
	if !strings.HasPrefix(sumdb, prefix) {
		panic("unexpected sumdb tile path " + sumdb)
	}
	return "tile/" + level + "/" + strings.TrimPrefix(sumdb, prefix)
}

type tileReader struct{ base string }

func (r *tileReader) Height() int { return tileHeight }

func (r *tileReader) ReadTiles(tiles []tlog.Tile) ([][]byte, error) {
	data := make([][]byte, len(tiles))
	for i, t := range tiles {
		path := tlogTilesPath(t, strconv.Itoa(t.L))
		body, err := get(r.base + "/" + path)
		if err != nil {
			return nil, err
		}
		if len(body) != t.W*tlog.HashSize {
			return nil, fmt.Errorf("%s: %d bytes, want %d", path, len(body), t.W*tlog.HashSize)
		}
		data[i] = body
	}
	return data, nil
}

func (r *tileReader) SaveTiles([]tlog.Tile, [][]byte) {}

func get(url string) ([]byte, error) {
	resp, err := http.Get(url)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	return body, nil
}

func parseInts(list string) ([]int64, error) {
	var out []int64
	for _, item := range strings.Split(list, ",") {
		if item == "" {
			continue
		}
		n, err := strconv.ParseInt(item, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("index %q: %v", item, err)
		}
		out = append(out, n)
	}
	return out, nil
}
