#pragma once
// Colours and symbol sizes shared by the scene's builders (scene_sync.cpp, scene_joints.cpp).

namespace rlx::ui::style {

// Body colours: muted, distinguishable, readable under a dark outline.
inline constexpr double kPalette[][3] = {
    {0.35, 0.56, 0.80}, {0.93, 0.62, 0.28}, {0.40, 0.70, 0.55}, {0.80, 0.42, 0.45},
    {0.58, 0.48, 0.76}, {0.70, 0.66, 0.36}, {0.36, 0.68, 0.76}, {0.78, 0.52, 0.66}};
inline constexpr double kHighlight[3] = {1.0, 0.55, 0.05};
inline constexpr double kInk[3] = {0.16, 0.18, 0.22};
inline constexpr double kPaper[3] = {0.98, 0.98, 0.97};  // pin faces
inline constexpr double kPlane[3] = {0.72, 0.77, 0.84};  // planes of joints (translucent)
inline constexpr double kMotion[3] = {0.82, 0.15, 0.42};
inline constexpr double kSpring[3] = {0.15, 0.45, 0.30};
inline constexpr double kReaction[3] = {0.85, 0.12, 0.12};

// A joint pin's radius as a share of the model's size.
inline constexpr double kPinShare = 0.022;

}  // namespace rlx::ui::style
