//! `npuzzle compare`: reproducibility by seed, every format, the optimality flags checked
//! against an independent breadth-first search, and the SVG chart's structure.

mod common;

use common::{distances, npuzzle, standard_goal};
use serde_json::Value;

/// `npuzzle compare ARGS --format FORMAT`.
fn compare(args: &[&str], format: &str) -> std::process::Output {
    npuzzle()
        .arg("compare")
        .args(args)
        .args(["--format", format])
        .output()
        .unwrap()
}

fn json_of(args: &[&str]) -> (Option<i32>, Value) {
    let out = compare(args, "json");
    let v = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code(), v)
}

/// The exit code, header and rows of `npuzzle compare ARGS --format csv`.
fn csv_of(args: &[&str]) -> (Option<i32>, csv::StringRecord, Vec<csv::StringRecord>) {
    let out = compare(args, "csv");
    let mut reader = csv::Reader::from_reader(out.stdout.as_slice());
    let header = reader.headers().unwrap().clone();
    let rows = reader.records().map(Result::unwrap).collect();
    (out.status.code(), header, rows)
}

/// Everything but the times.
fn without_times(mut v: Value) -> Value {
    for c in v["configs"].as_array_mut().unwrap() {
        for r in c["runs"].as_array_mut().unwrap() {
            r["seconds"] = Value::Null;
        }
        let strip = |s: &mut Value| {
            s["seconds_mean"] = Value::Null;
            s["seconds_max"] = Value::Null;
        };
        strip(&mut c["summary"]);
        for b in c["bins"].as_array_mut().unwrap() {
            strip(&mut b["summary"]);
        }
    }
    v
}

#[test]
fn the_same_seed_gives_the_same_instances_and_node_counts() {
    let args = [
        "--walks",
        "8,16",
        "--per-bin",
        "6",
        "--size",
        "3x3",
        "--seed",
        "42",
        "-H",
        "manhattan,linear-conflict",
        "-a",
        "astar,idastar",
    ];
    let (code, first) = json_of(&args);
    assert_eq!(code, Some(0));
    let (_, again) = json_of(&[&args[..], &["--jobs", "1"]].concat());
    assert_eq!(first["seed"], 42);
    assert_eq!(first["instances"].as_array().unwrap().len(), 12);
    assert_eq!(without_times(first.clone()), without_times(again));
    let mut other = args.to_vec();
    other[7] = "43";
    let (_, other) = json_of(&other);
    assert_ne!(first["instances"], other["instances"]);
}

#[test]
fn flags_configurations_whose_paths_are_not_optimal() {
    let (code, v) = json_of(&[
        "--random",
        "25",
        "--size",
        "3x3",
        "--seed",
        "7",
        "-c",
        "astar:manhattan",
        "-c",
        "idastar:linear-conflict",
        "-c",
        "greedy:manhattan",
        "-c",
        "bfs",
    ]);
    assert_eq!(code, Some(0));
    let dist = distances(3, 3, &standard_goal(9));
    let instances = v["instances"].as_array().unwrap();
    // The reference lengths are the true distances.
    for inst in instances {
        let start: Vec<u32> = serde_json::from_value(inst["start"].clone()).unwrap();
        assert_eq!(inst["reference_length"].as_u64(), Some(dist[&start] as u64));
    }
    let configs = v["configs"].as_array().unwrap();
    let names: Vec<&str> = configs
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "astar:manhattan",
            "idastar:linear-conflict",
            "greedy:manhattan",
            "bfs"
        ]
    );
    for c in configs {
        let s = &c["summary"];
        assert_eq!(s["solved"], 25);
        assert_eq!(s["checked"], 25);
        assert_eq!(s["shorter"], 0);
        let longer = c["runs"]
            .as_array()
            .unwrap()
            .iter()
            .zip(instances)
            .filter(|(r, i)| r["length"].as_u64() > i["reference_length"].as_u64())
            .count();
        assert_eq!(s["longer"].as_u64(), Some(longer as u64));
        if c["name"] == "greedy:manhattan" {
            assert!(
                longer > 0,
                "greedy found only optimal paths on 25 random boards"
            );
        } else {
            assert_eq!(longer, 0, "{}", c["name"]);
        }
        // b* is in a sensible range for the 8-puzzle.
        let b = s["ebf_mean"].as_f64().unwrap();
        assert!((1.0..3.0).contains(&b), "{b}");
    }
    // Better heuristics expand fewer nodes on average, as they must.
    let expanded = |i: usize| configs[i]["summary"]["expanded_mean"].as_f64().unwrap();
    assert!(expanded(0) < expanded(3));
}

#[test]
fn text_table_has_a_row_per_configuration_and_says_which_are_not_optimal() {
    let out = npuzzle()
        .args([
            "compare",
            "--walks",
            "12,24",
            "--per-bin",
            "5",
            "--size",
            "3x3",
        ])
        .args([
            "--seed",
            "3",
            "-c",
            "astar:manhattan",
            "-c",
            "greedy:misplaced",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text
        .starts_with("10 instances (random walks of 12, 24 moves on 3x3, 5 per length, seed 3)"));
    let row = |name: &str| {
        text.lines()
            .filter(|l| l.starts_with(&format!("{name} ")))
            .map(String::from)
            .collect::<Vec<_>>()
    };
    // One overall row and one per walk length.
    assert_eq!(row("astar:manhattan").len(), 3);
    assert!(row("astar:manhattan")[0].contains("10/10"));
    assert!(row("astar:manhattan")[0].ends_with("yes"));
    assert!(row("greedy:misplaced")[0].contains("NO: longer on"));
    assert!(text.contains("Random walks of 12 moves:"));
    assert!(text.contains("greedy:misplaced: longer than optimal on"));
}

/// A configuration that leaves the heuristic to the planner (`-H auto`) says in each run
/// which it chose, as `solve --json`, the server and Python do; the JSON named it
/// `astar` with heuristic `null` and the runs said nothing.
#[test]
fn runs_name_the_heuristic_the_planner_chose() {
    let (code, v) = json_of(&[
        "--random",
        "3",
        "--size",
        "3x3",
        "--seed",
        "4",
        "-H",
        "manhattan,auto",
    ]);
    assert_eq!(code, Some(0));
    let configs = v["configs"].as_array().unwrap();
    for r in configs[0]["runs"].as_array().unwrap() {
        assert_eq!(r["heuristic"], "manhattan", "{r}");
    }
    // What `solve` plans for a 3x3 board with A*.
    let out = npuzzle()
        .args(["solve", "1 2 3/4 5 6/7 0 8", "-a", "astar", "--json"])
        .output()
        .unwrap();
    let solve: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(solve["heuristic"].is_string(), "{solve}");
    for r in configs[1]["runs"].as_array().unwrap() {
        assert_eq!(r["heuristic"], solve["heuristic"], "{r}");
    }
}

/// The CSV's `heuristic` column is the one each run used, as the JSON runs and `batch` name
/// it: with `-H pdb` it said `pdb` where the runs said `pdb:8`.
#[test]
fn csv_names_the_heuristic_each_run_used() {
    let args = [
        "--random", "3", "--size", "3x3", "--seed", "2", "-H", "pdb,auto",
    ];
    let (code, v) = json_of(&args);
    assert_eq!(code, Some(0));
    let (code, header, rows) = csv_of(&args);
    assert_eq!(code, Some(0));
    let col = header.iter().position(|h| h == "heuristic").unwrap();
    let from_csv: Vec<String> = rows.iter().map(|r| r[col].to_string()).collect();
    let from_json: Vec<String> = v["configs"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["runs"].as_array().unwrap().iter())
        .map(|r| r["heuristic"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(from_csv.len(), 6);
    assert_eq!(from_csv, from_json);
    assert!(from_csv[0].starts_with("pdb:"), "{from_csv:?}");
}

#[test]
fn csv_has_one_row_per_configuration_and_instance() {
    let (code, header, rows) = csv_of(&[
        "--random",
        "6",
        "--size",
        "3x3",
        "--seed",
        "1",
        "-H",
        "misplaced,max(manhattan,misplaced)",
    ]);
    assert_eq!(code, Some(0));
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    assert_eq!(rows.len(), 12);
    assert_eq!(&rows[0][col("config")], "astar:misplaced");
    assert_eq!(&rows[6][col("config")], "astar:max(manhattan,misplaced)");
    for r in &rows {
        assert_eq!(&r[col("longer_than_optimal")], "false");
        assert_eq!(&r[col("length")], &r[col("optimal_length")]);
        assert!(r[col("expanded")].parse::<u64>().is_ok());
    }
}

#[test]
fn expected_lengths_in_a_file_are_the_reference_and_a_wrong_one_is_caught() {
    let dist = distances(3, 3, &standard_goal(9));
    let boards = [
        "8 6 7 2 5 4 3 0 1",
        "1 2 3 4 5 6 0 7 8",
        "4 1 2 0 8 7 6 3 5",
    ];
    let truth: Vec<usize> = boards
        .iter()
        .map(|b| {
            dist[&b
                .split(' ')
                .map(|t| t.parse().unwrap())
                .collect::<Vec<u32>>()]
        })
        .collect();
    let text = format!(
        "{} {}\n{} {}\nnot a board\n2 1 3 4 5 6 7 8 0\n{} {}\n",
        boards[0],
        truth[0],
        boards[1],
        truth[1] + 4, // wrong
        boards[2],
        truth[2]
    );
    let out = npuzzle()
        .args([
            "compare",
            "--file",
            "-",
            "-c",
            "idastar:manhattan",
            "--format",
            "json",
        ])
        .write_stdin(text)
        .output()
        .unwrap();
    // A bad line and a wrong expected length: invalid input, 2; the rest still ran.
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("line 3: "), "{stderr}");
    assert!(stderr.contains("line 4: unsolvable (skipped)"), "{stderr}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let labels: Vec<&str> = v["instances"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["line 1", "line 2", "line 5"]);
    // The wrong length is named in the words of every command, and the optimal run's
    // length replaces it as the reference: no configuration is judged against it.
    let words = format!(
        "line 2: wrong expected length: found {} moves, the file says {}",
        truth[1],
        truth[1] + 4
    );
    assert!(stderr.contains(&words), "{stderr}");
    assert_eq!(v["instances"][1]["reference_length"], truth[1]);
    let s = &v["configs"][0]["summary"];
    assert_eq!(s["shorter"], 0);
    assert_eq!(s["longer"], 0);
}

#[test]
fn refuses_bad_requests_with_one_line() {
    for (args, message) in [
        (vec!["compare"], "error: no instances: give --file FILE, --random K or --walks D1,D2,...\n"),
        (vec!["compare", "--random", "3"], "error: --random and --walks need --size RxC\n"),
        (
            vec!["compare", "--random", "3", "--size", "3x3", "--reference", "greedy:manhattan"],
            "error: --reference greedy:manhattan does not guarantee shortest paths: use an optimal algorithm (astar, idastar, bfs) with an admissible heuristic\n",
        ),
    ] {
        npuzzle().args(&args).assert().code(2).stderr(message);
    }
    let out = npuzzle()
        .args([
            "compare",
            "--random",
            "3",
            "--size",
            "3x3",
            "-H",
            "manhattan,bogus",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("unknown heuristic `bogus`"));
    // An empty list is refused as `solve -H ""` refuses it (it ran the defaults).
    for (flag, words) in [
        ("-H", "invalid heuristic expression ``"),
        ("-a", "unknown algorithm ``"),
    ] {
        let out = npuzzle()
            .args(["compare", "--random", "3", "--size", "3x3", flag, ""])
            .output()
            .unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{flag}: {stderr}");
        assert!(stderr.contains(words), "{flag}: {stderr}");
    }
}

/// A file of unsolvable boards only exits 1, as `batch` on it does and as cli.md says of
/// unsolvable boards ("no instances to compare" exited 2, as for an empty file).
#[test]
fn a_file_of_unsolvable_boards_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("boards.txt");
    std::fs::write(&file, "1 2 3/4 5 6/8 7 0\n").unwrap();
    let out = npuzzle()
        .args([
            "compare",
            "--file",
            file.to_str().unwrap(),
            "-H",
            "manhattan",
        ])
        .args(["--reference", "none"])
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("unsolvable"), "{stderr}");
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, "\n").unwrap();
    let out = npuzzle()
        .args(["compare", "--file", empty.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_chart_is_valid_svg_with_axes_a_legend_and_a_series_per_configuration() {
    let dir = std::env::temp_dir().join(format!("npuzzle-compare-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("chart.svg");
    let configs = [
        "astar:misplaced",
        "astar:manhattan",
        "idastar:linear-conflict",
    ];
    let mut cmd = npuzzle();
    cmd.args([
        "compare",
        "--walks",
        "6,12,18",
        "--per-bin",
        "4",
        "--size",
        "3x3",
    ])
    .args(["--seed", "5", "--chart", path.to_str().unwrap()]);
    for c in configs {
        cmd.args(["-c", c]);
    }
    cmd.assert().code(0);
    let svg = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    let by_id = |id: &str| {
        doc.descendants()
            .find(|n| n.attribute("id") == Some(id))
            .unwrap_or_else(|| panic!("no #{id}"))
    };
    let texts = |n: roxmltree::Node| -> Vec<String> {
        n.descendants()
            .filter(|t| t.has_tag_name("text"))
            .filter_map(|t| t.text().map(String::from))
            .collect()
    };
    // Axes: a line each, tick labels, and titles.
    for (id, title) in [
        ("x-axis", "optimal solution length (moves)"),
        ("y-axis", "nodes expanded (mean, log scale)"),
    ] {
        let axis = by_id(id);
        assert!(axis.children().any(|c| c.has_tag_name("line")));
        let labels = texts(axis);
        assert!(labels.contains(&title.to_string()), "{id}: {labels:?}");
        assert!(labels.len() >= 3, "{id} has too few ticks: {labels:?}");
    }
    assert!(texts(by_id("y-axis")).contains(&"1".to_string()));
    // Legend: one entry per configuration, in order.
    let legend: Vec<String> = by_id("legend")
        .children()
        .filter(|n| n.attribute("class") == Some("legend-entry"))
        .flat_map(texts)
        .collect();
    assert_eq!(legend, configs);
    // One series per configuration, each a line through its points.
    let series: Vec<roxmltree::Node> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("series"))
        .collect();
    let names: Vec<&str> = series
        .iter()
        .map(|s| s.attribute("data-name").unwrap())
        .collect();
    assert_eq!(names, configs);
    for s in &series {
        let points = s.children().filter(|c| c.has_tag_name("circle")).count();
        assert!(
            points >= 3,
            "{:?} has {points} points",
            s.attribute("data-name")
        );
        let line = s.children().find(|c| c.has_tag_name("polyline")).unwrap();
        assert_eq!(line.attribute("points").unwrap().split(' ').count(), points);
    }
}
