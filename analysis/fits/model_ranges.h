#ifndef TICKBENCH_ANALYSIS_MODEL_RANGES_H_
#define TICKBENCH_ANALYSIS_MODEL_RANGES_H_

// Internal to model_fit: the ranges of a layout family's size parameters from fine profiles
// (ModelFitOptions::fine_ranges in analysis/fits/model_fit.h, which states the contract).

#include <functional>

#include "analysis/fits/model_fit.h"
#include "analysis/fits/model_screen.h"

namespace tickbench::analysis::model_fit_internal {

// The fine grids: s every byte from kFineSmallLow to min(C − 1, kFineSmallHigh); C and
// chunks every kFineSizeStep bytes from kFineSizeLow to the size past which their columns
// no longer change (the largest measured size for a chunk, the divisor times it for a
// cluster, whose threshold t = C / divisor must stay within reach), at most kFineSizeHigh;
// an MTU from kFineMtuLow (IPv4's minimum) to the largest measured size + 28 + 8 (past it
// every size is one packet), at most kFineMtuHigh: every byte up to kFineMtuByteHigh (Ethernet
// jumbo frames), every kFineSizeStep bytes above, where the fragment payload changes anyway
// (a sweep to 64000 bytes would otherwise screen 64000 MTUs per family with one).
// The chosen value and the coarse values that fit are added to every grid.
inline constexpr int64_t kFineSmallLow = 16;
inline constexpr int64_t kFineSmallHigh = 512;
inline constexpr int64_t kFineSizeLow = 64;
inline constexpr int64_t kFineSizeStep = 8;
inline constexpr int64_t kFineSizeHigh = 65536;
inline constexpr int64_t kFineMtuLow = 68;
inline constexpr int64_t kFineMtuHigh = 65535;
inline constexpr int64_t kFineMtuByteHigh = 9216;

// A parameter whose fitting values are more than this share of the values tried is "not
// determined by the data".
inline constexpr double kUndeterminedShare = 0.5;

// A candidate's BIC under its family's criterion, from its screened weighted RSS.
using ScoreRss = std::function<double(double rss)>;

// Replaces fit.ranges (the coarse grid's) by the profiles of fit.model's size parameters:
// each one moved over its fine grid with the others at fit.model's values (t = C / the
// chosen divisor), scored by `score`; a value fits when its BIC is within range_delta_bic of
// the best seen for that parameter: the family's best coarse candidate (screen's) or the
// best of the parameter's own profile. A coarse candidate within that of it adds its value
// too. (The best of another parameter's profile is not the bar: with the others held, a
// profile is conditional on them, and a better fit found by moving the MTU would leave no C
// that fits at the chosen MTU.)
void ProfileRanges(const FamilyScreen& screen, const Inputs& in, const LineBasis& basis,
                   const ScoreRss& score, double range_delta_bic, FamilyFit& fit);

}  // namespace tickbench::analysis::model_fit_internal

#endif  // TICKBENCH_ANALYSIS_MODEL_RANGES_H_
