package job

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"sparsefs/api"
)

// The exclusive methods report per-class rankings as per_class; the other
// methods omit the key.
func TestPerClassJSON(t *testing.T) {
	csv := []byte("a,b,c,label\n1,0,5,x\n2,0.5,4,x\n6,5,5,y\n7,5,6,y\n1,0.2,5,x\n5,4,4,z\n6,4,5,z\n")
	for _, c := range []struct {
		method string
		want   bool
	}{{"exl21", true}, {"elasso", true}, {"fstat", false}} {
		resp, err := Run(context.Background(), &api.Request{Method: c.method, Params: map[string]any{}}, Input{Raw: csv}, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(resp)
		var got map[string]any
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		pc, ok := got["per_class"]
		if ok != c.want {
			t.Errorf("%s: per_class present = %v in %s", c.method, ok, b)
			continue
		}
		if ok {
			if lists := pc.([]any); len(lists) != 3 || len(lists[0].([]any)) != 3 {
				t.Errorf("%s: per_class %v", c.method, pc)
			}
			solver := `"solver":"cd"`
			if c.method == "elasso" {
				solver = `"solver":"reweight"` // elasso's default
			}
			if !strings.Contains(string(b), solver) {
				t.Errorf("%s: solver not reported by name in %s", c.method, b)
			}
		}
	}
}

// dso runs through the job format on a real file (the CLI's and the
// worker's path), with its parameters by name, a trace and a stop reason.
func TestDSOJob(t *testing.T) {
	csv := []byte("a,b,c,d,label\n1,0,5,2,x\n2,0.5,4,1,x\n6,5,5,0,y\n7,5,6,1,y\n1,0.2,5,3,x\n5,4,4,2,z\n6,4,5,1,z\n")
	resp, err := Run(context.Background(), &api.Request{Method: "dso", Params: map[string]any{"p": "1", "e_rows": "pivots"}, K: 2}, Input{Raw: csv}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := resp.Selection
	if s.Params["p"] != 1.0 || s.Params["e_rows"] != "pivots" || len(s.Trace) != s.Iterations || s.Stop == "" || s.Objective == nil || len(s.Selected) != 2 {
		t.Errorf("selection %+v", s)
	}
	if s.PerClass != nil {
		t.Errorf("dso reported per-class rankings")
	}
	if _, err := Run(context.Background(), &api.Request{Method: "dso", Params: map[string]any{"p": 2.0}}, Input{Raw: csv}, nil); err == nil || !strings.Contains(err.Error(), "parameter p") {
		t.Errorf("p = 2: %v", err)
	}
}
