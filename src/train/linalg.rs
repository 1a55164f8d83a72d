//! The linear algebra the fitters share: a small dense linear system solved
//! by Gaussian elimination, and weighted least squares on top of it.

/// Solves `m x = v` by Gaussian elimination with partial pivoting, then back
/// substitution. A column left without a non-zero pivot (a singular system)
/// gets 0.
pub fn solve(mut m: Vec<Vec<f64>>, mut v: Vec<f64>) -> Vec<f64> {
    let n = v.len();
    for col in 0..n {
        let pivot = (col..n)
            .max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))
            .unwrap_or(col);
        m.swap(col, pivot);
        v.swap(col, pivot);
        let (top, rest) = m.split_at_mut(col + 1);
        let pivot_row = &top[col];
        if pivot_row[col] == 0.0 {
            continue;
        }
        for (offset, row) in rest.iter_mut().enumerate() {
            let f = row[col] / pivot_row[col];
            if f == 0.0 {
                continue;
            }
            for k in col..n {
                row[k] -= f * pivot_row[k];
            }
            v[col + 1 + offset] -= f * v[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        if m[row][row] == 0.0 {
            continue;
        }
        let rest: f64 = (row + 1..n).map(|k| m[row][k] * x[k]).sum();
        x[row] = (v[row] - rest) / m[row][row];
    }
    x
}

/// Weighted least squares: the coefficients `c` minimising
/// Σ weight·(features·c − target)² over `rows` of (features, target,
/// weight), by the normal equations. A tiny ridge keeps a feature that is
/// always 0 from making the system singular.
pub fn weighted_least_squares(rows: &[(Vec<f64>, f64, f64)]) -> Vec<f64> {
    let k = rows.first().map_or(0, |r| r.0.len());
    let mut a = vec![vec![0.0; k]; k];
    let mut b = vec![0.0; k];
    for (features, target, weight) in rows {
        for i in 0..k {
            for j in 0..k {
                a[i][j] += weight * features[i] * features[j];
            }
            b[i] += weight * features[i] * target;
        }
    }
    for (i, row) in a.iter_mut().enumerate() {
        row[i] += 1e-6;
    }
    solve(a, b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solve_pivots_and_substitutes_back() {
        // The first pivot is 0: the rows must be swapped.
        let m = vec![
            vec![0.0, 2.0, 1.0],
            vec![1.0, 1.0, 0.0],
            vec![2.0, 0.0, 3.0],
        ];
        let x = solve(m, vec![7.0, 3.0, 11.0]);
        for (got, want) in x.iter().zip([1.0, 2.0, 3.0]) {
            assert!((got - want).abs() < 1e-12, "{x:?}");
        }
        // A singular column gets 0 instead of NaN.
        let x = solve(vec![vec![1.0, 0.0], vec![0.0, 0.0]], vec![2.0, 0.0]);
        assert_eq!(x, vec![2.0, 0.0]);
    }

    #[test]
    fn least_squares_recovers_a_plane() {
        let mut rows = Vec::new();
        for e in 0..10 {
            for d in 0..5 {
                let (e, d) = (e as f64, d as f64);
                rows.push((vec![e, d, 1.0], 0.5 * e - 2.0 * d + 3.0, 1.0));
            }
        }
        let c = weighted_least_squares(&rows);
        assert!(
            (c[0] - 0.5).abs() < 1e-3 && (c[1] + 2.0).abs() < 1e-3 && (c[2] - 3.0).abs() < 1e-3
        );
    }
}
