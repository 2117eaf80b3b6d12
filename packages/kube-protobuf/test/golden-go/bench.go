package main

import (
	"encoding/base64"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

func mustTime(value string) time.Time {
	parsed, err := time.Parse(time.RFC3339Nano, value)
	must(err)
	return parsed
}

func encodeBase64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

// benchPodList is a list of pods as a CloneSet's pods look on the API server once running: admission's
// defaults and token volume, managedFields of the controller and the kubelet, the kubelet's status.
func benchPodList(count int) *corev1.PodList {
	list := &corev1.PodList{TypeMeta: typeMeta("v1", "PodList"), ListMeta: metav1.ListMeta{ResourceVersion: "918273"}}
	for i := range count {
		list.Items = append(list.Items, benchPod(i))
	}
	return list
}

func benchPod(i int) corev1.Pod {
	name := fmt.Sprintf("web-%05d", i)
	created := at("2026-11-29T06:58:29Z")
	pod := fullPod()
	app := pod.Spec.Containers[0]
	app.Env, app.EnvFrom, app.Lifecycle, app.StartupProbe, app.LivenessProbe, app.SecurityContext = nil, nil, nil, nil, nil, nil
	app.Resources = corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("10m"), corev1.ResourceMemory: resource.MustParse("16Mi")}}
	app.VolumeMounts = app.VolumeMounts[1:]
	meta := objectMeta(name)
	meta.DeletionTimestamp, meta.DeletionGracePeriodSeconds, meta.Finalizers = nil, nil, nil
	meta.UID = types.UID(fmt.Sprintf("3f8c1a52-6a4e-4a3b-9a57-%012d", i))
	meta.OwnerReferences = meta.OwnerReferences[:1]
	delete(meta.Annotations, "html")
	delete(meta.Annotations, "unicode")
	meta.Labels = map[string]string{"app": "web", "controller-revision-hash": "web-7d9f8b6c5d", "apps.kruise.io/cloneset-instance-id": fmt.Sprintf("%05d", i), "pod-template-hash": "7d9f8b6c5d"}
	return corev1.Pod{
		ObjectMeta: meta,
		Spec: corev1.PodSpec{
			Volumes:                       pod.Spec.Volumes[4:5],
			Containers:                    []corev1.Container{app},
			RestartPolicy:                 corev1.RestartPolicyAlways,
			TerminationGracePeriodSeconds: ptr(int64(30)),
			DNSPolicy:                     corev1.DNSClusterFirst,
			ServiceAccountName:            "default",
			DeprecatedServiceAccount:      "default",
			NodeName:                      fmt.Sprintf("kwok-node-%d", i%100),
			SecurityContext:               &corev1.PodSecurityContext{},
			SchedulerName:                 "default-scheduler",
			Tolerations:                   pod.Spec.Tolerations[:1],
			Priority:                      ptr(int32(0)),
			EnableServiceLinks:            ptr(true),
			PreemptionPolicy:              ptr(corev1.PreemptLowerPriority),
			ReadinessGates:                []corev1.PodReadinessGate{{ConditionType: "InPlaceUpdateReady"}},
		},
		Status: corev1.PodStatus{
			Phase: corev1.PodRunning,
			Conditions: []corev1.PodCondition{
				{Type: "InPlaceUpdateReady", Status: corev1.ConditionTrue, LastTransitionTime: created},
				{Type: corev1.PodReadyToStartContainers, Status: corev1.ConditionTrue, LastTransitionTime: created},
				{Type: corev1.PodInitialized, Status: corev1.ConditionTrue, LastTransitionTime: created},
				{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: created},
				{Type: corev1.ContainersReady, Status: corev1.ConditionTrue, LastTransitionTime: created},
				{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: created},
			},
			HostIP: "10.0.0.5", HostIPs: []corev1.HostIP{{IP: "10.0.0.5"}},
			PodIP: fmt.Sprintf("10.244.%d.%d", i/250, i%250), PodIPs: []corev1.PodIP{{IP: fmt.Sprintf("10.244.%d.%d", i/250, i%250)}},
			StartTime: &created,
			ContainerStatuses: []corev1.ContainerStatus{{
				Name: "app", State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: created}},
				Ready: true, Image: app.Image, ImageID: "", Started: ptr(true),
			}},
			QOSClass: corev1.PodQOSBurstable,
		},
	}
}
