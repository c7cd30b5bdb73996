//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"syscall/js"

	"github.com/vugu/vugu"
	vjs "github.com/vugu/vugu/js"

	"sparsefs/ui/app"
)

// Files: the user's (File API), the bundled ones (fetch), those the page
// makes; downloads and charts' boxes.

// keep stores a file (a Blob: the user's File itself, never read here)
// under a new data number.
func (b *browser) keep(name string, blob js.Value) int {
	b.next++
	b.data[b.next], b.names[b.next] = blob, name
	return b.next
}

// KeepText implements Backend: the text, encoded as UTF-8, becomes a
// file.
func (b *browser) KeepText(name, text string) app.Opened {
	blob := js.Global().Get("Blob").New([]any{text})
	return app.Opened{Name: name, Size: blob.Get("size").Int(), Data: b.keep(name, blob)}
}

// Drop implements Backend.
func (b *browser) Drop(data int) {
	delete(b.data, data)
	delete(b.names, data)
}

// OpenInput implements Backend.
func (b *browser) OpenInput(ev vugu.DOMEvent, done func(app.Opened)) {
	target := js.Value(ev.JSEventTarget())
	files := target.Get("files")
	if files.Length() == 0 {
		done(app.Opened{Err: errors.New("no file was chosen")})
		return
	}
	b.read(files.Index(0), done)
	target.Set("value", "") // choosing the same file again fires change again
}

// OpenDrop implements Backend.
func (b *browser) OpenDrop(ev vugu.DOMEvent, done func(app.Opened)) {
	dt := js.Value(ev.JSEvent()).Get("dataTransfer")
	if !dt.Truthy() || dt.Get("files").Length() == 0 {
		done(app.Opened{Err: errors.New("nothing was dropped: drop a file (CSV or TSV)")})
		return
	}
	b.read(dt.Get("files").Index(0), done)
}

// read keeps a File: the workers read it (its bytes are not read here).
func (b *browser) read(file js.Value, done func(app.Opened)) {
	name, size := file.Get("name").String(), file.Get("size").Int()
	b.later(func() { done(app.Opened{Name: name, Size: size, Data: b.keep(name, file)}) })
}

// OpenURL implements Backend.
func (b *browser) OpenURL(url, name string, done func(app.Opened)) {
	fail := func(msg string) {
		b.later(func() { done(app.Opened{Name: name, Err: fmt.Errorf("cannot load %s: %s", url, msg)}) })
	}
	await(js.Global().Call("fetch", url), func(resp js.Value) {
		if !resp.Get("ok").Bool() {
			fail(fmt.Sprintf("HTTP %d", resp.Get("status").Int()))
			return
		}
		await(resp.Call("blob"), func(blob js.Value) {
			b.later(func() {
				done(app.Opened{Name: name, Size: blob.Get("size").Int(), Data: b.keep(name, blob)})
			})
		}, fail)
	}, fail)
}

// ReadText implements Backend.
func (b *browser) ReadText(ev vugu.DOMEvent, done func(name, text string, err error)) {
	target := js.Value(ev.JSEventTarget())
	files := target.Get("files")
	if files.Length() == 0 {
		done("", "", errors.New("no file was chosen"))
		return
	}
	file := files.Index(0)
	name := file.Get("name").String()
	target.Set("value", "")
	await(file.Call("text"), func(text js.Value) {
		s := text.String()
		b.later(func() { done(name, s, nil) })
	}, func(msg string) {
		b.later(func() { done(name, "", fmt.Errorf("cannot read %s: %s", name, msg)) })
	})
}

// Download implements Backend.
func (b *browser) Download(name, mime, text string) {
	js.Global().Call("sparsefsDownload", name, mime, text)
}

// SavePNG implements Backend.
func (b *browser) SavePNG(name, svg string) {
	js.Global().Call("sparsefsSavePNG", name, svg)
}

// Paint implements Backend.
func (b *browser) Paint(el vjs.Value, key, markup string) {
	v := js.Value(el)
	if k := v.Get("sparsefsKey"); k.Type() == js.TypeString && k.String() == key {
		return
	}
	v.Set("innerHTML", markup)
	v.Set("sparsefsKey", key)
}

// await calls ok or fail once a promise settles, releasing its callbacks.
func await(promise js.Value, ok func(js.Value), fail func(string)) {
	var onOK, onErr js.Func
	release := func() { onOK.Release(); onErr.Release() }
	onOK = js.FuncOf(func(_ js.Value, args []js.Value) any {
		release()
		ok(args[0])
		return nil
	})
	onErr = js.FuncOf(func(_ js.Value, args []js.Value) any {
		release()
		fail(js.Global().Get("String").Invoke(args[0]).String())
		return nil
	})
	promise.Call("then", onOK, onErr)
}
