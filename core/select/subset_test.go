package selection

import "testing"

// A SubsetParam must name one of the method's integer parameters.
func TestSubsetParamChecked(t *testing.T) {
	for _, bad := range []*Spec{
		{Name: "test_bad_subset1", Kind: Embedded, SubsetParam: "k", New: func(Params) (Selector, error) { return Fisher{}, nil }},
		{Name: "test_bad_subset2", Kind: Embedded, SubsetParam: "k", New: func(Params) (Selector, error) { return Fisher{}, nil },
			Params: []Param{{Name: "k", Default: 1, Min: 0, Max: 10, Doc: "not an integer"}}},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s registered", bad.Name)
				}
			}()
			Register(bad)
		}()
	}
}
