"""The layers of tickbench and the arrows between them, as Bazel package groups: each
package's default visibility is the group of packages allowed to depend on it, so an
arrow the design does not draw (say transport -> analysis) fails the build.

    harness  -> remote, analysis, timing, transport, board, model, core, platform
                (board: built for the board, //harness is the board program)
    remote   -> transport, core, model, platform
    analysis -> model, platform
    timing   -> core, model, platform
    transport -> core, model, platform
    board    -> core, platform          (the bare-metal target)
    model, core, platform: leaves (platform may use nothing of the project)

tests/, bench/ and fuzz/ may use every layer. docs/architecture.md draws the same
picture. Called once, from //bazel:BUILD.bazel; packages name the groups as
"//bazel:<layer>_users"."""

_ANYONE_TESTING = ["//tests/...", "//bench/...", "//fuzz/..."]

# Who may depend on each layer.
LAYER_USERS = {
    "harness": [],
    "remote": ["//harness/..."],
    "analysis": ["//harness/..."],
    "timing": ["//harness/..."],
    "transport": ["//harness/...", "//remote/..."],
    # Built for the board, //harness is the board program: it links //board:runtime
    # and //board:harness_main and reads //board:on_board.
    "board": ["//harness/..."],
    "core": ["//harness/...", "//remote/...", "//timing/...", "//transport/...", "//board/..."],
    "model": ["//harness/...", "//remote/...", "//analysis/...", "//transport/...", "//timing/..."],
    "platform": [
        "//harness/...",
        "//remote/...",
        "//analysis/...",
        "//transport/...",
        "//timing/...",
        "//board/...",
        # The board's toolchain names the board's constraint value.
        "//bazel/toolchains/...",
    ],
}

def tickbench_layer_groups():
    """Declares one package_group per layer: <layer>_users."""
    for layer, users in LAYER_USERS.items():
        native.package_group(
            name = layer + "_users",
            packages = users + _ANYONE_TESTING,
        )
