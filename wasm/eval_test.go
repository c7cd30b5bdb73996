package main

import (
	"encoding/json"
	"testing"

	"sparsefs/core/job"
)

// A worker runs one unit of an evaluation, as the page's pool will: the
// request names the unit, the data travel beside it, and the answer is a
// part that merges.
func TestEvalUnitJob(t *testing.T) {
	r := newRecorder()
	w := newWorker(r.post, nil)
	data := "a,b,label\n1,0,0\n2,2,0\n6,5,1\n7,5,1\n1.5,1,0\n6.5,4,1\n"
	w.start(3, `{"op":"eval","data":{"name":"x.csv"},"eval":{"methods":[{"method":"fisher"}],"k":[1],"protocol":{"kind":"cv","folds":2}},"units":[1]}`, []byte(data))
	m := r.wait(t)
	if m["type"] != "result" {
		t.Fatalf("message %v", m)
	}
	var part job.EvalPart
	if err := json.Unmarshal([]byte(m["response"].(string)), &part); err != nil {
		t.Fatal(err)
	}
	if part.Header.Units != 2 || len(part.Units) != 1 || part.Units[0].Unit != 1 || part.Units[0].Accuracy[0][0] != 1 {
		t.Errorf("part %+v, units %+v", part.Header, part.Units)
	}
}
