#!/bin/sh
# rx-watch-tmux.sh — run `rfhandoff rx watch` in a tmux session on the RX laptop,
# so the watcher has a terminal and can prompt ([A] Approve  [D] Defer  [S] Stop
# watcher) whenever a new task arrives, and survives your ssh session.
#
# Usage: scripts/rx-watch-tmux.sh [CHECKOUT [POLICY]]
#   CHECKOUT  the RX checkout           (default: $RFHANDOFF_CHECKOUT or ~/rx-checkout)
#   POLICY    the policy file            (default: $RFHANDOFF_CONFIG or ~/.config/rfhandoff/rx.toml;
#             never one inside the checkout: rfhandoff refuses a policy in a git working tree)
#
# Starts the session "rfhandoff-rx" if it is not running, then attaches to it.
# Detach with Ctrl-b d; the watcher keeps running. Stop it with [S] at its
# prompt or Ctrl-C in its pane (a clean stop).
#
# Security note: a tmux pane IS a terminal. Anyone (or any process) running as
# your user can attach to the session or `tmux send-keys` into it and answer the
# prompt. The terminal gate keeps out processes that have no terminal (cron,
# services, an agent's subprocess); it is not a boundary against software that
# runs as you. See docs/OPERATIONS.md, "Threat model".
set -eu

session=rfhandoff-rx
checkout=${1:-${RFHANDOFF_CHECKOUT:-$HOME/rx-checkout}}
policy=${2:-${RFHANDOFF_CONFIG:-$HOME/.config/rfhandoff/rx.toml}}

command -v tmux >/dev/null || { echo "rx-watch-tmux.sh: tmux is not installed" >&2; exit 1; }
command -v rfhandoff >/dev/null || { echo "rx-watch-tmux.sh: rfhandoff is not on PATH" >&2; exit 1; }
[ -d "$checkout/.git" ] || { echo "rx-watch-tmux.sh: $checkout is not a git checkout" >&2; exit 1; }

if ! tmux has-session -t "$session" 2>/dev/null; then
	# The pane keeps the watcher's last words on screen if it ever exits.
	tmux new-session -d -s "$session" -c "$checkout" \
		"rfhandoff --config '$policy' rx watch; echo \"rx watch exited (status \$?); press Enter to close\"; read _"
	tmux set-option -t "$session" remain-on-exit off >/dev/null
fi
if [ -n "${TMUX:-}" ]; then
	exec tmux switch-client -t "$session"
fi
exec tmux attach-session -t "$session"
