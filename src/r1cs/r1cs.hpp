// The r1cs layer in one include: variables and linear combinations, the constraint-system
// concept, the three implementations, the recorded shape and evaluate_abc.
#pragma once

#include "r1cs/constraint_system.hpp"
#include "r1cs/linear_combination.hpp"
#include "r1cs/result.hpp"
#include "r1cs/shape.hpp"
#include "r1cs/shape_recorder.hpp"
#include "r1cs/test_system.hpp"
#include "r1cs/witness_builder.hpp"
