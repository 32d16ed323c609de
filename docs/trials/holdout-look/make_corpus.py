"""Copy the held-out files from the fetched mirrors into the trial layout and
record where each came from (repo, commit, path, sha256)."""
import hashlib, json, subprocess
from pathlib import Path

ROOT = Path(__file__).parent
MIRROR = Path("/work/.mirror")
FILES = [
    # (set, program, repo, path)
    ("holdout-kernels", "gauss_seidel", "djeada/Numerical-Methods", "src/2_systems_of_equations/gauss_seidel/implementation/gauss_seidel.py"),
    ("holdout-kernels", "gaussian_elimination", "djeada/Numerical-Methods", "src/2_systems_of_equations/gaussian_elimination/implementation/gaussian_elimination.py"),
    ("holdout-kernels", "jacobi_method", "djeada/Numerical-Methods", "src/2_systems_of_equations/jacobi_method/implementation/jacobi_method.py"),
    ("holdout-kernels", "lu_decomposition", "djeada/Numerical-Methods", "src/2_systems_of_equations/lu_decomposition/implementation/lu_decomposition.py"),
    ("holdout-kernels", "qr_method", "djeada/Numerical-Methods", "src/5_matrices/qr_method/implementation/qr_method.py"),
    ("holdout-kernels", "power_method", "djeada/Numerical-Methods", "src/5_matrices/power_method/implementation/power_method.py"),
    ("holdout-kernels", "inverse_power_method", "djeada/Numerical-Methods", "src/5_matrices/inverse_power_method/implementation/inverse_power_method.py"),
    ("holdout-kernels", "eigenvalues_and_eigenvectors", "djeada/Numerical-Methods", "src/5_matrices/eigenvalues_and_eigenvectors/implementation/eigenvalues_and_eigenvectors.py"),
    ("holdout-kernels", "cubic_spline", "djeada/Numerical-Methods", "src/6_regression/cubic_spline/implementation/cubic_spline.py"),
    ("holdout-kernels", "newton_polynomial", "djeada/Numerical-Methods", "src/6_regression/newton_polynomial/implementation/newton_polynomial.py"),
    ("holdout-kernels", "partial_differential_equations", "djeada/Numerical-Methods", "src/7_ordinary_differential_equations/partial_differential_equations/implementation/partial_differential_equations.py"),
    ("holdout-kernels", "histogramEqualize", "kucar17/Various-Image-Processing-Algorithms-with-Python", "histogramEqualize.py"),
    ("holdout-kernels", "imageHistogram", "kucar17/Various-Image-Processing-Algorithms-with-Python", "imageHistogram.py"),
    ("holdout-kernels", "highButterworth", "kucar17/Various-Image-Processing-Algorithms-with-Python", "highButterworth.py"),
    ("holdout-kernels", "idealHighPass", "kucar17/Various-Image-Processing-Algorithms-with-Python", "idealHighPass.py"),
    ("holdout-kernels", "imageQuantize", "kucar17/Various-Image-Processing-Algorithms-with-Python", "imageQuantize.py"),
    ("holdout-kernels", "imageBitPlaneSlice", "kucar17/Various-Image-Processing-Algorithms-with-Python", "imageBitPlaneSlice.py"),
    ("holdout-kernels", "imageSample", "kucar17/Various-Image-Processing-Algorithms-with-Python", "imageSample.py"),
    ("holdout-kernels", "generateSine", "kucar17/Various-Image-Processing-Algorithms-with-Python", "generateSine.py"),
    ("holdout-kernels", "ml_dbscan", "adityajn105/MLfromScratch", "cluster/densitybased.py"),
    ("holdout-kernels", "ml_kmeans", "adityajn105/MLfromScratch", "cluster/partitioning.py"),
    ("holdout-kernels", "ml_hierarchical", "adityajn105/MLfromScratch", "cluster/hierarchical.py"),
    ("holdout-kernels", "ml_knn", "adityajn105/MLfromScratch", "neighbors/classifiers.py"),
    ("holdout-kernels", "ml_gaussian_nb", "adityajn105/MLfromScratch", "naive_bayes/gaussian.py"),
    ("holdout-kernels", "ml_sgd_classifier", "adityajn105/MLfromScratch", "linear_model/classifiers.py"),
    ("holdout-kernels", "ml_decision_tree", "adityajn105/MLfromScratch", "tree/classifiers.py"),
    ("holdout-scripts", "ph354_burgers", "ankit27kh/Computational-Physics-PH354", "Ankit Khandelwal_HW6/Exercise 8/exercise 8 Burger.py"),
    ("holdout-scripts", "ph354_poisson_sor", "ankit27kh/Computational-Physics-PH354", "Ankit Khandelwal_HW6/Exercise 9/exercise 9 GS SOR.py"),
    ("holdout-scripts", "ph354_thomas_diffusion", "ankit27kh/Computational-Physics-PH354", "Ankit Khandelwal_HW6/Exercise 7/exercise 7.py"),
    ("holdout-scripts", "ph354_dimer_annealing", "ankit27kh/Computational-Physics-PH354", "Ankit Khandelwal_HW7/Exercise 9/exercise 9.py"),
    ("holdout-scripts", "ph354_ising", "ankit27kh/Computational-Physics-PH354", "Ankit Khandelwal_HW7/Exercise 7/exercise 7e.py"),
    ("holdout-scripts", "phy432_stochastic_dynamics", "Py4Phy/PHY432-resources", "06_numpy/06-stochastic_dynamics.ipynb"),
    ("holdout-scripts", "phy432_heat_pde", "Py4Phy/PHY432-resources", "15_PDEs/15_PDEs.ipynb"),
    ("holdout-scripts", "phy432_string_waves", "Py4Phy/PHY432-resources", "16_PDEs_waves/16_PDEs_waves.ipynb"),
    ("holdout-scripts", "phy432_ising_2d", "Py4Phy/PHY432-resources", "17_MonteCarlo/ising_2d.ipynb"),
    ("holdout-scripts", "phy432_earth_orbit", "Py4Phy/PHY432-resources", "10_ODEs/earth_orbit/earth_orbit_vverlet.ipynb"),
    ("holdout-scripts", "lb_sequential", "sn2727/LatticeBoltzmann", "src/seqLB/LB.py"),
    ("holdout-scripts", "lb_parallel", "sn2727/LatticeBoltzmann", "src/parallelLB/LB.py"),
    ("holdout-scripts", "shearwave", "sn2727/LatticeBoltzmann", "src/shearwave.py"),
    ("holdout-scripts", "dsp_convolution", "appledora/DSP_LAB_TASK", "2.ipynb"),
    ("holdout-scripts", "dsp_dft", "appledora/DSP_LAB_TASK", "5.ipynb"),
    ("holdout-scripts", "dsp_fft_dnc", "appledora/DSP_LAB_TASK", "8.ipynb"),
]
# Modules the programs import from beside themselves in their repository,
# copied (unlabelled) so that "a module beside the file" stays true.
CONTEXT = [
    ("holdout-scripts", "seqLB/__init__.py", "sn2727/LatticeBoltzmann", "src/seqLB/__init__.py"),
    ("holdout-scripts", "seqLB/LB.py", "sn2727/LatticeBoltzmann", "src/seqLB/LB.py"),
    ("holdout-scripts", "seqLB/boundaries.py", "sn2727/LatticeBoltzmann", "src/seqLB/boundaries.py"),
]


def git(repo: str, *args: str) -> bytes:
    gitdir = MIRROR / repo.replace("/", "+") / "repo"
    return subprocess.run(["git", "--git-dir", str(gitdir), *args], check=True, capture_output=True).stdout


def main() -> None:
    records, context = [], []
    for set_name, program, repo, path in FILES:
        commit = git(repo, "rev-parse", "HEAD").decode().strip()
        data = git(repo, "show", f"HEAD:{path}")
        suffix = ".ipynb" if path.endswith(".ipynb") else ".py"
        out = ROOT / set_name / f"{program}{suffix}"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(data)
        records.append({"program": program, "set": set_name, "repo": repo, "commit": commit, "path": path,
                        "sha256": hashlib.sha256(data).hexdigest(), "lines": data.count(b"\n") + 1})
    for set_name, rel, repo, path in CONTEXT:
        commit = git(repo, "rev-parse", "HEAD").decode().strip()
        data = git(repo, "show", f"HEAD:{path}")
        out = ROOT / set_name / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(data)
        context.append({"file": f"{set_name}/{rel}", "repo": repo, "commit": commit, "path": path,
                        "sha256": hashlib.sha256(data).hexdigest()})
    (ROOT / "sources.json").write_text(json.dumps({"look": "holdout-look", "files": records, "context": context}, indent=1) + "\n")
    print(len(records), "programs,", len(context), "context files")


if __name__ == "__main__":
    main()
