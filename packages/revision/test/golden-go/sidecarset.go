//go:build !goexperiment.jsonv2

package main

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"

	"github.com/distribution/reference"
	appsv1alpha1 "github.com/openkruise/kruise-api/apps/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/rand"
	kjson "sigs.k8s.io/json"
)

// sidecarSetVector is what OpenKruise's SidecarSet webhook writes into the SidecarSet's annotations
// (kruise.io/sidecarset-hash and -hash-without-image), and the JSON it hashed.
type sidecarSetVector struct {
	Encoded          string `json:"encoded,omitempty"`
	Hash             string `json:"hash,omitempty"`
	HashWithoutImage string `json:"hashWithoutImage,omitempty"`
	RevisionData     string `json:"revisionData,omitempty"`
	Error            string `json:"error,omitempty"`
}

// sidecarSetHashes decodes a stored SidecarSet into kruise-api's type, applies the webhook's container
// defaults (apis/apps/defaults setDefaultContainer, ported below from Kubernetes' SetDefaults_*), and
// hashes it as pkg/control/sidecarcontrol/hash.go does.
func sidecarSetHashes(object []byte) sidecarSetVector {
	var set appsv1alpha1.SidecarSet
	if err := kjson.UnmarshalCaseSensitivePreserveInts(object, &set); err != nil {
		return sidecarSetVector{Error: err.Error()}
	}
	for i := range set.Spec.InitContainers {
		defaultSidecar(&set.Spec.InitContainers[i], appsv1alpha1.AfterAppContainerType)
	}
	for i := range set.Spec.Containers {
		defaultSidecar(&set.Spec.Containers[i], appsv1alpha1.BeforeAppContainerType)
	}
	encoded, err := encodeSidecarSet(&set)
	if err != nil {
		return sidecarSetVector{Error: err.Error()}
	}
	withoutImage := set.DeepCopy()
	for i := range withoutImage.Spec.Containers {
		withoutImage.Spec.Containers[i].Image = ""
	}
	for i := range withoutImage.Spec.InitContainers {
		withoutImage.Spec.InitContainers[i].Image = ""
	}
	encodedWithoutImage, err := encodeSidecarSet(withoutImage)
	if err != nil {
		return sidecarSetVector{Error: err.Error()}
	}
	revisionData, err := sidecarSetRevisionData(&set)
	if err != nil {
		return sidecarSetVector{Error: err.Error()}
	}
	return sidecarSetVector{Encoded: encoded, Hash: sha256Safe(encoded), HashWithoutImage: sha256Safe(encodedWithoutImage), RevisionData: revisionData}
}

// sidecarSetRevisionData is the data of the SidecarSet's ControllerRevision as the controller's history
// control writes it (pkg/control/sidecarcontrol history_control.go getPatch): the typed set encoded,
// decoded into generic maps, five spec fields picked with the replace directive, marshalled again.
func sidecarSetRevisionData(set *appsv1alpha1.SidecarSet) (string, error) {
	typed, err := json.Marshal(set)
	if err != nil {
		return "", err
	}
	var raw map[string]interface{}
	if err := json.Unmarshal(typed, &raw); err != nil {
		return "", err
	}
	spec, _ := raw["spec"].(map[string]interface{})
	picked := map[string]interface{}{"$patch": "replace"}
	for _, key := range []string{"volumes", "containers", "initContainers", "imagePullSecrets", "patchPodMetadata"} {
		picked[key] = spec[key]
	}
	data, err := json.Marshal(map[string]interface{}{"spec": picked})
	return string(data), err
}

func encodeSidecarSet(set *appsv1alpha1.SidecarSet) (string, error) {
	m := map[string]interface{}{"containers": set.Spec.Containers}
	for _, container := range set.Spec.InitContainers {
		if container.RestartPolicy != nil && *container.RestartPolicy == corev1.ContainerRestartPolicyAlways {
			m["initContainers"] = set.Spec.InitContainers
			break
		}
	}
	data, err := json.Marshal(m)
	return string(data), err
}

func sha256Safe(data string) string {
	return rand.SafeEncodeString(fmt.Sprintf("%x", sha256.Sum256([]byte(data))))
}

func defaultSidecar(sidecar *appsv1alpha1.SidecarContainer, policy appsv1alpha1.PodInjectPolicyType) {
	if sidecar.PodInjectPolicy == "" {
		sidecar.PodInjectPolicy = policy
	}
	if sidecar.UpgradeStrategy.UpgradeType == "" {
		sidecar.UpgradeStrategy.UpgradeType = appsv1alpha1.SidecarContainerColdUpgrade
	}
	if sidecar.ShareVolumePolicy.Type == "" {
		sidecar.ShareVolumePolicy.Type = appsv1alpha1.ShareVolumePolicyDisabled
	}
	container := &sidecar.Container
	defaultContainer(container)
	for i := range container.Ports {
		if container.Ports[i].Protocol == "" {
			container.Ports[i].Protocol = "TCP"
		}
	}
	for i := range sidecar.TransferEnv {
		if from := sidecar.TransferEnv[i].SourceContainerNameFrom; from != nil && from.FieldRef != nil && from.FieldRef.APIVersion == "" {
			from.FieldRef.APIVersion = "v1"
		}
	}
	for i := range container.Env {
		if from := container.Env[i].ValueFrom; from != nil && from.FieldRef != nil && from.FieldRef.APIVersion == "" {
			from.FieldRef.APIVersion = "v1"
		}
	}
	roundUpToMilli(container.Resources.Limits)
	roundUpToMilli(container.Resources.Requests)
	defaultProbe(container.LivenessProbe)
	defaultProbe(container.ReadinessProbe)
	if container.Lifecycle != nil {
		if container.Lifecycle.PostStart != nil {
			defaultHTTPGet(container.Lifecycle.PostStart.HTTPGet)
		}
		if container.Lifecycle.PreStop != nil {
			defaultHTTPGet(container.Lifecycle.PreStop.HTTPGet)
		}
	}
}

// defaultContainer is Kubernetes' SetDefaults_Container, with its image tag rule (ParseImageName).
func defaultContainer(container *corev1.Container) {
	if container.ImagePullPolicy == "" {
		container.ImagePullPolicy = corev1.PullIfNotPresent
		if imageTag(container.Image) == "latest" {
			container.ImagePullPolicy = corev1.PullAlways
		}
	}
	if container.TerminationMessagePath == "" {
		container.TerminationMessagePath = corev1.TerminationMessagePathDefault
	}
	if container.TerminationMessagePolicy == "" {
		container.TerminationMessagePolicy = corev1.TerminationMessageReadFile
	}
}

func imageTag(image string) string {
	named, err := reference.ParseNormalizedNamed(image)
	if err != nil {
		return ""
	}
	tag, digest := "", ""
	if tagged, ok := named.(reference.Tagged); ok {
		tag = tagged.Tag()
	}
	if digested, ok := named.(reference.Digested); ok {
		digest = digested.Digest().String()
	}
	if tag == "" && digest == "" {
		return "latest"
	}
	return tag
}

func roundUpToMilli(list corev1.ResourceList) {
	for name, value := range list {
		value.RoundUp(resource.Milli)
		list[name] = value
	}
}

func defaultProbe(probe *corev1.Probe) {
	if probe == nil {
		return
	}
	if probe.TimeoutSeconds == 0 {
		probe.TimeoutSeconds = 1
	}
	if probe.PeriodSeconds == 0 {
		probe.PeriodSeconds = 10
	}
	if probe.SuccessThreshold == 0 {
		probe.SuccessThreshold = 1
	}
	if probe.FailureThreshold == 0 {
		probe.FailureThreshold = 3
	}
	defaultHTTPGet(probe.HTTPGet)
}

func defaultHTTPGet(action *corev1.HTTPGetAction) {
	if action == nil {
		return
	}
	if action.Path == "" {
		action.Path = "/"
	}
	if action.Scheme == "" {
		action.Scheme = corev1.URISchemeHTTP
	}
}
