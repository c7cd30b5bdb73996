package app_test

import (
	"encoding/json"
	"os"
	"testing"

	"sparsefs/api"
	"sparsefs/core/job"
	"sparsefs/ui/app/apptest"
	"sparsefs/ui/lab"
)

// Every paper's preset, applied in the page to the demo data, plans the
// evaluation `sparsefs eval -preset` runs (lab.Preset.EvalPlan: the
// preset read without the page's form), so that the page and the
// experiments' scripts give the same numbers; the cheap presets are also
// run through the page's workers, whose report is the report of one run of
// that plan.
func TestPresetsPlanAsTheCommandLine(t *testing.T) {
	data, err := os.ReadFile("../../assets/demo/breast-cancer-wisconsin.csv")
	if err != nil {
		t.Fatal(err)
	}
	ps, err := lab.Presets()
	if err != nil || len(ps) == 0 {
		t.Fatalf("presets: %v (%d)", err, len(ps))
	}
	// These run to the end on the page (the units on the workers, the
	// report merged and saved); the vote preset's report has two
	// classifiers, one of them a per-class vote.
	run := map[string]bool{"rfs-nie-2010": true, "filters": true, "exclusive-l21-ming-ding-2019-vote": true}
	for _, p := range ps {
		t.Run(p.ID, func(t *testing.T) {
			f := apptest.New(t, 2)
			a := f.App()
			f.Open(a, "demo.csv", data)
			a.Config.ChoosePreset(p.ID)
			if !a.Config.CanApplyPreset() {
				t.Fatal("the preset cannot be applied")
			}
			a.Config.ApplyPreset()
			if notes := a.Config.PresetNotes(); len(notes) > 0 {
				t.Fatalf("the preset does not apply whole: %v", notes)
			}
			sh := a.Data.Inspection().Dataset.Shape()
			want, _, err := p.EvalPlan(job.Methods().Methods, sh, nil)
			if err != nil {
				t.Fatal(err)
			}
			f.Pump(-1) // the workers warm up for the preset
			var plan *api.Request
			if run[p.ID] {
				plan, _ = evaluate(t, f, a, data)
			} else {
				from := len(f.Tasks)
				a.Run()
				f.Deliver()
				plans := f.RunsOf(api.OpEvalPlan, from)
				if len(plans) != 1 {
					t.Fatalf("%d plans (error %q)", len(plans), a.Error())
				}
				plan = plans[0]
				a.Cancel()
				f.Pump(-1)
			}
			if got, exp := marshal(t, plan.Eval), marshal(t, want); got != exp {
				t.Errorf("the page plans\n%s\nthe preset's plan is\n%s", got, exp)
			}
		})
	}
}

func marshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
