package evaluate

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseInts reads a list of whole numbers written as comma-separated items,
// each a number (7), a range a:b (1:50, inclusive) or a stepped range
// a:b:s (10:100:10). An ellipsis ("..." or "…") between two numbers
// continues the step of the two before it: "10,20,...,100". Spaces are
// ignored. "10,20,30", "10:30:10" and "10,20,…,30" are the same list.
func ParseInts(s string) ([]int, error) {
	var out []int
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, fmt.Errorf("empty list")
	}
	items := strings.Split(s, ",")
	for n := 0; n < len(items); n++ {
		item := strings.TrimSpace(items[n])
		if item == "..." || item == "…" {
			if len(out) < 2 || n+1 >= len(items) {
				return nil, fmt.Errorf("an ellipsis needs two numbers before it and one after it, as in 10,20,...,100")
			}
			end, err := strconv.Atoi(strings.TrimSpace(items[n+1]))
			a, b := out[len(out)-2], out[len(out)-1]
			if err != nil || b <= a || end < b || (end-b)%(b-a) != 0 || (end-b)/(b-a) > 1e6 {
				return nil, fmt.Errorf("the ellipsis after %d,%d does not reach %q in steps of %d", a, b, strings.TrimSpace(items[n+1]), b-a)
			}
			for v := b + (b - a); v <= end; v += b - a {
				out = append(out, v)
			}
			n++
			continue
		}
		parts := strings.Split(item, ":")
		nums := make([]int, len(parts))
		for i, p := range parts {
			v, err := strconv.Atoi(strings.TrimSpace(p))
			if err != nil {
				return nil, fmt.Errorf("%q is not a whole number, a range a:b or a stepped range a:b:step", item)
			}
			nums[i] = v
		}
		switch len(nums) {
		case 1:
			out = append(out, nums[0])
		case 2, 3:
			step := 1
			if len(nums) == 3 {
				step = nums[2]
			}
			if step <= 0 || nums[1] < nums[0] {
				return nil, fmt.Errorf("range %q must go upwards with a positive step", item)
			}
			if (nums[1]-nums[0])/step > 1e6 {
				return nil, fmt.Errorf("range %q is too long", item)
			}
			for v := nums[0]; v <= nums[1]; v += step {
				out = append(out, v)
			}
		default:
			return nil, fmt.Errorf("%q is not a whole number, a range a:b or a stepped range a:b:step", item)
		}
	}
	return out, nil
}
