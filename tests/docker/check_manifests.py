#!/usr/bin/env python3
"""Renders the Kubernetes manifests with `kubectl kustomize` (docker/k8s,
the fleet on a read-only level ConfigMap, and docker/k8s-fleet, the fleet on
the password-protected Redis store) and checks what docker/README.md
promises of them:

- every pod runs without a service account token, as a non-root user;
- the collide pods spread over zones and nodes, log JSON, and have an HPA
  on CPU;
- NetworkPolicies admit the query (50051), admin (50052) and metrics (9090)
  ports of the collide pods and Redis' port (6379) from collide pods only;
- a ServiceMonitor scrapes /metrics on a port of the collide Service, and a
  PrometheusRule is there (check_rules.py runs its alerts through promtool);
- the Redis fleet authenticates: Redis loads an ACL file from a Secret with
  its default user off, the collide replicas read the password from the
  same Secret with --level_store_password_file, and the level ConfigMap is
  gone.

Usage: check_manifests.py REPOSITORY_ROOT [KUBECTL]
Exits 0 when every check holds, else 1 naming each failed check.
"""

import subprocess
import sys

import yaml

failures = []


def check(condition, what):
    if not condition:
        failures.append(what)


def render(kubectl, directory):
    result = subprocess.run([kubectl, "kustomize", directory],
                            capture_output=True, text=True, timeout=60)
    if result.returncode != 0:
        print(f"kubectl kustomize {directory} failed:\n{result.stderr}",
              file=sys.stderr)
        sys.exit(1)
    return [doc for doc in yaml.safe_load_all(result.stdout) if doc]


def by_kind(objects, kind, name):
    for obj in objects:
        if obj["kind"] == kind and obj["metadata"]["name"] == name:
            return obj
    return None


def pod_specs(objects):
    for obj in objects:
        if obj["kind"] in ("Deployment", "StatefulSet", "DaemonSet"):
            yield obj["metadata"]["name"], obj["spec"]["template"]["spec"]


def policy_ports(policy):
    """{port: [peer selector, ...]} of a NetworkPolicy's ingress rules."""
    ports = {}
    for rule in policy["spec"].get("ingress", []):
        for port in rule.get("ports", []):
            ports.setdefault(port["port"], []).extend(rule.get("from", []))
    return ports


def check_common(objects, where):
    for name, spec in pod_specs(objects):
        check(spec.get("automountServiceAccountToken") is False,
              f"{where}: {name} mounts the service account token")
        check(spec.get("securityContext", {}).get("runAsNonRoot") is True,
              f"{where}: {name} may run as root")
    collide = by_kind(objects, "Deployment", "collide")
    check(collide is not None, f"{where}: no collide Deployment")
    if collide is None:
        return None
    spec = collide["spec"]["template"]["spec"]
    keys = {c["topologyKey"] for c in spec.get("topologySpreadConstraints", [])}
    check({"topology.kubernetes.io/zone", "kubernetes.io/hostname"} <= keys,
          f"{where}: collide pods do not spread over zones and nodes: {keys}")
    args = spec["containers"][0]["args"]
    check("--log_format=json" in args, f"{where}: collide does not log JSON")
    hpa = by_kind(objects, "HorizontalPodAutoscaler", "collide")
    check(hpa is not None and
          hpa["spec"]["scaleTargetRef"]["name"] == "collide" and
          any(m.get("resource", {}).get("name") == "cpu"
              for m in hpa["spec"]["metrics"]),
          f"{where}: no HPA on the collide Deployment's CPU")
    policy = by_kind(objects, "NetworkPolicy", "collide")
    check(policy is not None, f"{where}: no NetworkPolicy for collide")
    if policy is not None:
        ports = policy_ports(policy)
        for port in (50051, 50052, 9090):
            check(port in ports and ports[port],
                  f"{where}: collide's NetworkPolicy does not name who "
                  f"reaches port {port}")
        check(set(ports) == {50051, 50052, 9090},
              f"{where}: collide's NetworkPolicy opens {sorted(ports)}")
    check_monitoring(objects, where)
    return args


def check_monitoring(objects, where):
    """The ServiceMonitor scrapes /metrics on a port the collide Service
    names, and the PrometheusRule is there (check_rules.py runs it)."""
    monitor = by_kind(objects, "ServiceMonitor", "collide")
    service = by_kind(objects, "Service", "collide")
    check(monitor is not None and service is not None,
          f"{where}: no ServiceMonitor or Service for collide")
    if monitor is None or service is None:
        return
    labels = service["metadata"].get("labels", {})
    wanted = monitor["spec"]["selector"]["matchLabels"]
    check(all(labels.get(k) == v for k, v in wanted.items()),
          f"{where}: the ServiceMonitor selects {wanted}, the Service has "
          f"{labels}")
    names = {p.get("name") for p in service["spec"]["ports"]}
    for endpoint in monitor["spec"]["endpoints"]:
        check(endpoint.get("port") in names and
              endpoint.get("path") == "/metrics",
              f"{where}: the ServiceMonitor scrapes {endpoint}, the Service "
              f"names ports {sorted(names)}")
    check(by_kind(objects, "PrometheusRule", "collide") is not None,
          f"{where}: no PrometheusRule for collide")


def main():
    root = sys.argv[1]
    kubectl = sys.argv[2] if len(sys.argv) > 2 else "kubectl"

    base = render(kubectl, f"{root}/docker/k8s")
    args = check_common(base, "docker/k8s")
    if args is not None:
        check("--admin_listen=none" in args,
              "docker/k8s: the ConfigMap fleet serves level changes")

    fleet = render(kubectl, f"{root}/docker/k8s-fleet")
    args = check_common(fleet, "docker/k8s-fleet") or []
    check("--level_store_password_file=/etc/collide/redis/password" in args,
          "docker/k8s-fleet: collide reads no Redis password file")
    check("--level_store_user=collide" in args,
          "docker/k8s-fleet: collide names no Redis ACL user")
    check(not any(a.startswith("--level_dir") for a in args),
          "docker/k8s-fleet: collide still has --level_dir")
    collide = by_kind(fleet, "Deployment", "collide")
    if collide is not None:
        volumes = collide["spec"]["template"]["spec"]["volumes"]
        check(not any("configMap" in v for v in volumes),
              "docker/k8s-fleet: the level ConfigMap is still mounted")
        check(any(v.get("secret", {}).get("secretName") ==
                  "collide-redis-auth" for v in volumes),
              "docker/k8s-fleet: collide mounts no collide-redis-auth Secret")
    redis = by_kind(fleet, "Deployment", "collide-redis")
    check(redis is not None, "docker/k8s-fleet: no Redis")
    if redis is not None:
        spec = redis["spec"]["template"]["spec"]
        check("--aclfile" in spec["containers"][0]["args"],
              "docker/k8s-fleet: Redis loads no ACL file")
        check(any(v.get("secret", {}).get("secretName") ==
                  "collide-redis-auth" for v in spec["volumes"]),
              "docker/k8s-fleet: Redis mounts no collide-redis-auth Secret")
    policy = by_kind(fleet, "NetworkPolicy", "collide-redis")
    check(policy is not None, "docker/k8s-fleet: no NetworkPolicy for Redis")
    if policy is not None:
        peers = policy_ports(policy).get(6379, [])
        check(peers == [{"podSelector": {"matchLabels": {
            "app.kubernetes.io/name": "collide"}}}],
              f"docker/k8s-fleet: Redis' port admits {peers}")

    for failure in failures:
        print(f"FAIL: {failure}", file=sys.stderr)
    if failures:
        return 1
    print(f"manifests hold: {len(base)} objects in docker/k8s, "
          f"{len(fleet)} in docker/k8s-fleet")
    return 0


if __name__ == "__main__":
    sys.exit(main())
