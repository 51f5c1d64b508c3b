// The source of gameplan_test_pch, the target whose precompiled header every test reuses.
