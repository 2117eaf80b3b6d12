// Command kube is one binary for kube-apiserver, kube-controller-manager, kube-scheduler and kubectl,
// chosen by the name it is started under (argv[0], a symlink) or by its first argument.
// One binary links once instead of four times, which is most of a cold build on two cores. kubectl is
// here so that tests and the demo use a client of the API server's own version (`kubectl create
// --dry-run=server`, plugins) instead of whatever a machine has installed.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
	"k8s.io/component-base/cli"
	_ "k8s.io/component-base/logs/json/register"
	_ "k8s.io/component-base/metrics/prometheus/clientgo"
	_ "k8s.io/component-base/metrics/prometheus/version"
	kubectl "k8s.io/kubectl/pkg/cmd"
	apiserver "k8s.io/kubernetes/cmd/kube-apiserver/app"
	controllermanager "k8s.io/kubernetes/cmd/kube-controller-manager/app"
	scheduler "k8s.io/kubernetes/cmd/kube-scheduler/app"
	_ "time/tzdata"
)

func commandFor(name string) (*cobra.Command, bool) {
	switch name {
	case "kube-apiserver":
		return apiserver.NewAPIServerCommand(), true
	case "kube-controller-manager":
		return controllermanager.NewControllerManagerCommand(), true
	case "kube-scheduler":
		return scheduler.NewSchedulerCommand(), true
	case "kubectl":
		return kubectl.NewDefaultKubectlCommand(), true
	}
	return nil, false
}

func main() {
	if cmd, ok := commandFor(filepath.Base(os.Args[0])); ok {
		os.Exit(cli.Run(cmd))
	}
	if len(os.Args) > 1 {
		if cmd, ok := commandFor(os.Args[1]); ok {
			cmd.SetArgs(os.Args[2:])
			os.Exit(cli.Run(cmd))
		}
	}
	fmt.Fprintln(os.Stderr, "usage: kube {kube-apiserver|kube-controller-manager|kube-scheduler|kubectl} [flags]")
	os.Exit(2)
}
