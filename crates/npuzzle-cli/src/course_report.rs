//! The report of the classic AI-course 8-puzzle assignment (the `output.txt` of Columbia's
//! edX "Artificial Intelligence" course, after Russell & Norvig's AIMA), so existing
//! assignments and their graders can read npuzzle's results.
//!
//! What each field means here, honestly:
//!
//! | field | BFS, A*, greedy, weighted A* | IDA* (and `auto`) |
//! |---|---|---|
//! | `path_to_goal` | moves of the blank: `'Up'`, `'Down'`, `'Left'`, `'Right'` | same |
//! | `cost_of_path` | number of moves | same |
//! | `nodes_expanded` | states whose successors were generated | same, summed over all iterations (states are expanded again in each one) |
//! | `fringe_size` | open-list entries when the search ended | states on the current path when it ended (the solution length) |
//! | `max_fringe_size` | peak open-list entries | deepest path (IDA* keeps no open list) |
//! | `search_depth` | depth of the goal: the number of moves | same |
//! | `max_search_depth` | largest depth of any generated state | same |
//! | `running_time` | seconds of the search itself (not the process) | same |
//! | `max_ram_usage` | peak resident memory of the whole process in MB (`VmHWM` in `/proc/self/status`, what the assignment's `ru_maxrss` measures) | same |
//!
//! Differences from the assignment's reference numbers are expected: npuzzle never generates
//! the move straight back to the parent, BFS stops when it *generates* the goal, and open-list
//! entries made stale by a shorter path still count in A*'s fringe.

use std::fmt::Write as _;

use npuzzle::{Move, Solution};

/// The nine `key: value` lines of one solved search.
pub fn report(solution: &Solution, moves: &[Move]) -> String {
    let names: Vec<String> = moves.iter().map(|&m| format!("'{}'", name(m))).collect();
    let st = &solution.stats;
    let mut out = String::new();
    let _ = writeln!(out, "path_to_goal: [{}]", names.join(", "));
    let _ = writeln!(out, "cost_of_path: {}", moves.len());
    let _ = writeln!(out, "nodes_expanded: {}", st.expanded);
    let _ = writeln!(out, "fringe_size: {}", st.final_open);
    let _ = writeln!(out, "max_fringe_size: {}", st.max_open);
    let _ = writeln!(out, "search_depth: {}", moves.len());
    let _ = writeln!(out, "max_search_depth: {}", st.max_depth);
    let _ = writeln!(out, "running_time: {:.8}", st.seconds);
    match peak_memory_mb() {
        Some(mb) => writeln!(out, "max_ram_usage: {mb:.8}"),
        None => writeln!(out, "max_ram_usage: unknown"),
    }
    .expect("writing to a string");
    out
}

/// The assignment's name for a move of the blank.
fn name(m: Move) -> &'static str {
    match m {
        Move::Up => "Up",
        Move::Down => "Down",
        Move::Left => "Left",
        Move::Right => "Right",
    }
}

/// Peak resident memory of this process in megabytes (`VmHWM`), where the system says it.
pub fn peak_memory_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    parse_vm_hwm(&status)
}

fn parse_vm_hwm(status: &str) -> Option<f64> {
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_peak_from_proc_status() {
        let status = "Name:\tnpuzzle\nVmPeak:\t  10000 kB\nVmHWM:\t    2048 kB\nVmRSS:\t1 kB\n";
        assert_eq!(parse_vm_hwm(status), Some(2.0));
        assert_eq!(parse_vm_hwm("Name: x\n"), None);
    }

    #[test]
    fn move_names_follow_the_blank() {
        let names: Vec<&str> = Move::ALL.into_iter().map(name).collect();
        assert_eq!(names, ["Up", "Left", "Right", "Down"]);
    }
}
