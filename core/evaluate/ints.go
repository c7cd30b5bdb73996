package evaluate

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseInts reads a list of whole numbers written as comma-separated items,
// each a number (7), a range a:b (1:50, inclusive) or a stepped range
// a:b:s (10:100:10). Spaces are ignored. "10,20,30" and "10:30:10" are the
// same list.
func ParseInts(s string) ([]int, error) {
	var out []int
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, fmt.Errorf("empty list")
	}
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
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
