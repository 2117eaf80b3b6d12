package main

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/intstr"
)

var emptyGVK = schema.GroupVersionKind{}

// quantities in many notations, as a client may write them (the API server sends their String()).
func quantities() corev1.ResourceList {
	out := corev1.ResourceList{}
	for i, value := range []string{"100m", "1.5Gi", "+1k", "01Ki", "1e3", "0.1", "1000E", "12345678901234567890", "1E18", "-1", "0", "500Mi", "2", "0.000001", "1n", "9223372036854775807", "1.0000001"} {
		out[corev1.ResourceName("example.com/r"+itoa(i))] = resource.MustParse(value)
	}
	out[corev1.ResourceCPU] = resource.MustParse("250m")
	out[corev1.ResourceMemory] = resource.MustParse("64Mi")
	return out
}

func probe(handler corev1.ProbeHandler) *corev1.Probe {
	return &corev1.Probe{ProbeHandler: handler, InitialDelaySeconds: 5, PeriodSeconds: 10, TimeoutSeconds: 1, SuccessThreshold: 1, FailureThreshold: 3, TerminationGracePeriodSeconds: ptr(int64(0))}
}

func container(name string) corev1.Container {
	return corev1.Container{
		Name: name, Image: "registry.example.com/app:1.2.3@sha256:0123", Command: []string{"/bin/app"}, Args: []string{"--flag=1", ""},
		WorkingDir: "/work",
		Ports:      []corev1.ContainerPort{{Name: "http", ContainerPort: 8080, Protocol: corev1.ProtocolTCP}, {ContainerPort: 53, HostPort: 5353, Protocol: corev1.ProtocolUDP, HostIP: "0.0.0.0"}},
		EnvFrom:    []corev1.EnvFromSource{{Prefix: "P_", ConfigMapRef: &corev1.ConfigMapEnvSource{LocalObjectReference: corev1.LocalObjectReference{Name: "cm"}, Optional: ptr(true)}}},
		Env: []corev1.EnvVar{
			{Name: "A", Value: "1"},
			{Name: "POD", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.name"}}},
			{Name: "MEM", ValueFrom: &corev1.EnvVarSource{ResourceFieldRef: &corev1.ResourceFieldSelector{Resource: "limits.memory", Divisor: resource.MustParse("1Mi")}}},
			{Name: "S", ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "s"}, Key: "k"}}},
		},
		Resources:      corev1.ResourceRequirements{Limits: quantities(), Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m")}, Claims: []corev1.ResourceClaim{{Name: "gpu", Request: "r"}}},
		ResizePolicy:   []corev1.ContainerResizePolicy{{ResourceName: corev1.ResourceCPU, RestartPolicy: corev1.NotRequired}},
		VolumeMounts:   []corev1.VolumeMount{{Name: "data", MountPath: "/data", ReadOnly: true, SubPath: "x", MountPropagation: ptr(corev1.MountPropagationHostToContainer)}, {Name: "kube-api-access-abcde", MountPath: "/var/run/secrets/kubernetes.io/serviceaccount", ReadOnly: true}},
		LivenessProbe:  probe(corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/healthz", Port: intstr.FromString("http"), Scheme: corev1.URISchemeHTTP, HTTPHeaders: []corev1.HTTPHeader{{Name: "X", Value: ""}}}}),
		ReadinessProbe: probe(corev1.ProbeHandler{TCPSocket: &corev1.TCPSocketAction{Port: intstr.FromInt32(8080)}}),
		StartupProbe:   probe(corev1.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{"true"}}}),
		Lifecycle: &corev1.Lifecycle{
			PreStop:   &corev1.LifecycleHandler{Sleep: &corev1.SleepAction{Seconds: 5}},
			PostStart: &corev1.LifecycleHandler{HTTPGet: &corev1.HTTPGetAction{Port: intstr.FromInt32(0)}},
		},
		TerminationMessagePath: "/dev/termination-log", TerminationMessagePolicy: corev1.TerminationMessageReadFile,
		ImagePullPolicy: corev1.PullIfNotPresent,
		SecurityContext: &corev1.SecurityContext{Privileged: ptr(false), RunAsNonRoot: ptr(true), RunAsUser: ptr(int64(1000)), Capabilities: &corev1.Capabilities{Add: []corev1.Capability{"NET_ADMIN"}, Drop: []corev1.Capability{"ALL"}}, SeccompProfile: &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault}},
		Stdin:           false, TTY: true,
	}
}

func fullPod() *corev1.Pod {
	sidecar := container("sidecar")
	sidecar.RestartPolicy = ptr(corev1.ContainerRestartPolicyAlways)
	return &corev1.Pod{
		TypeMeta:   typeMeta("v1", "Pod"),
		ObjectMeta: objectMeta("web-x2k9p"),
		Spec: corev1.PodSpec{
			Volumes: []corev1.Volume{
				{Name: "data", VolumeSource: corev1.VolumeSource{PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: "data-web-x2k9p"}}},
				{Name: "cache", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{Medium: corev1.StorageMediumMemory, SizeLimit: ptr(resource.MustParse("1Gi"))}}},
				{Name: "cm", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: "cm"}, Items: []corev1.KeyToPath{{Key: "a", Path: "a", Mode: ptr(int32(0o644))}}, DefaultMode: ptr(int32(420))}}},
				{Name: "host", VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: "/var/log", Type: ptr(corev1.HostPathDirectoryOrCreate)}}},
				{Name: "kube-api-access-abcde", VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{DefaultMode: ptr(int32(420)), Sources: []corev1.VolumeProjection{
					{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{ExpirationSeconds: ptr(int64(3607)), Path: "token"}},
					{ConfigMap: &corev1.ConfigMapProjection{LocalObjectReference: corev1.LocalObjectReference{Name: "kube-root-ca.crt"}, Items: []corev1.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}}}},
					{DownwardAPI: &corev1.DownwardAPIProjection{Items: []corev1.DownwardAPIVolumeFile{{Path: "namespace", FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.namespace"}}}}},
				}}}},
				{Name: "eph", VolumeSource: corev1.VolumeSource{Ephemeral: &corev1.EphemeralVolumeSource{VolumeClaimTemplate: &corev1.PersistentVolumeClaimTemplate{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"a": "b"}}, Spec: fullClaim().Spec}}}},
			},
			InitContainers:      []corev1.Container{container("init"), sidecar},
			Containers:          []corev1.Container{container("app"), container("second")},
			EphemeralContainers: []corev1.EphemeralContainer{{EphemeralContainerCommon: corev1.EphemeralContainerCommon{Name: "debug", Image: "busybox", TTY: true}, TargetContainerName: "app"}},
			RestartPolicy:       corev1.RestartPolicyAlways, TerminationGracePeriodSeconds: ptr(int64(30)), ActiveDeadlineSeconds: ptr(int64(0)),
			DNSPolicy: corev1.DNSClusterFirst, NodeSelector: map[string]string{"kubernetes.io/os": "linux", "zone": ""},
			ServiceAccountName: "default", DeprecatedServiceAccount: "default", AutomountServiceAccountToken: ptr(false),
			NodeName: "node-1", HostNetwork: true, ShareProcessNamespace: ptr(true),
			SecurityContext:  &corev1.PodSecurityContext{FSGroup: ptr(int64(2000)), Sysctls: []corev1.Sysctl{{Name: "net.ipv4.ip_forward", Value: "1"}}},
			ImagePullSecrets: []corev1.LocalObjectReference{{Name: "regcred"}},
			Hostname:         "web-0", Subdomain: "web",
			Affinity: &corev1.Affinity{
				NodeAffinity: &corev1.NodeAffinity{
					RequiredDuringSchedulingIgnoredDuringExecution:  &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "k", Operator: corev1.NodeSelectorOpIn, Values: []string{"a", "b"}}}, MatchFields: []corev1.NodeSelectorRequirement{{Key: "metadata.name", Operator: corev1.NodeSelectorOpNotIn, Values: []string{"n"}}}}}},
					PreferredDuringSchedulingIgnoredDuringExecution: []corev1.PreferredSchedulingTerm{{Weight: 0, Preference: corev1.NodeSelectorTerm{}}},
				},
				PodAntiAffinity: &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}, MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "x", Operator: metav1.LabelSelectorOpExists}}}, TopologyKey: "kubernetes.io/hostname", Namespaces: []string{}, MatchLabelKeys: []string{"pod-template-hash"}}}},
				PodAffinity:     &corev1.PodAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{{Weight: 100, PodAffinityTerm: corev1.PodAffinityTerm{TopologyKey: "zone", NamespaceSelector: &metav1.LabelSelector{}}}}},
			},
			SchedulerName:     "default-scheduler",
			Tolerations:       []corev1.Toleration{{Key: "node.kubernetes.io/not-ready", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr(int64(300))}, {Key: "k", Operator: corev1.TolerationOpEqual, Value: "v", Effect: corev1.TaintEffectNoSchedule}},
			HostAliases:       []corev1.HostAlias{{IP: "10.0.0.1", Hostnames: []string{"a", "b"}}},
			PriorityClassName: "high", Priority: ptr(int32(1000)),
			DNSConfig:        &corev1.PodDNSConfig{Nameservers: []string{"1.1.1.1"}, Options: []corev1.PodDNSConfigOption{{Name: "ndots", Value: ptr("2")}, {Name: "edns0"}}},
			ReadinessGates:   []corev1.PodReadinessGate{{ConditionType: "InPlaceUpdateReady"}, {ConditionType: "KruisePodReady"}},
			RuntimeClassName: ptr("runc"), EnableServiceLinks: ptr(true), PreemptionPolicy: ptr(corev1.PreemptLowerPriority),
			Overhead:                  corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("10m")},
			TopologySpreadConstraints: []corev1.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: corev1.DoNotSchedule, LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}, MinDomains: ptr(int32(2)), NodeAffinityPolicy: ptr(corev1.NodeInclusionPolicyHonor), MatchLabelKeys: []string{"controller-revision-hash"}}},
			SetHostnameAsFQDN:         ptr(false),
			OS:                        &corev1.PodOS{Name: corev1.Linux},
			HostUsers:                 ptr(false),
			SchedulingGates:           []corev1.PodSchedulingGate{{Name: "example.com/gate"}},
			ResourceClaims:            []corev1.PodResourceClaim{{Name: "gpu", ResourceClaimTemplateName: ptr("gpu-template")}},
			Resources:                 &corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("2")}},
		},
		Status: corev1.PodStatus{
			ObservedGeneration: 3,
			Phase:              corev1.PodRunning,
			Conditions: []corev1.PodCondition{
				{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: at("2026-11-29T06:58:40Z"), ObservedGeneration: 3},
				{Type: "InPlaceUpdateReady", Status: corev1.ConditionTrue, LastProbeTime: at("2026-11-29T06:58:41Z"), LastTransitionTime: at("2026-11-29T06:58:41Z"), Reason: "r", Message: "m"},
				{Type: corev1.PodScheduled, Status: corev1.ConditionTrue},
			},
			Message: "msg", Reason: "reason", NominatedNodeName: "node-2",
			HostIP: "10.0.0.5", HostIPs: []corev1.HostIP{{IP: "10.0.0.5"}, {IP: "fd00::5"}},
			PodIP: "10.244.1.7", PodIPs: []corev1.PodIP{{IP: "10.244.1.7"}},
			StartTime:             ptr(at("2026-11-29T06:58:30Z")),
			InitContainerStatuses: []corev1.ContainerStatus{{Name: "init", State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 0, Reason: "Completed", StartedAt: at("2026-11-29T06:58:31Z"), FinishedAt: at("2026-11-29T06:58:32Z"), ContainerID: "containerd://1"}}, Ready: true, Image: "busybox", ImageID: "docker.io/library/busybox@sha256:1"}},
			ContainerStatuses: []corev1.ContainerStatus{
				{
					Name: "app", State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: at("2026-11-29T06:58:33Z")}},
					LastTerminationState: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: -1, Signal: 9, Reason: "OOMKilled", Message: "m", StartedAt: at("2026-11-29T06:50:00Z")}},
					Ready:                true, RestartCount: 2, Image: "registry.example.com/app:1.2.3", ImageID: "registry.example.com/app@sha256:abc", ContainerID: "containerd://2", Started: ptr(true),
					AllocatedResources:       corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m")},
					Resources:                &corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("64Mi")}},
					VolumeMounts:             []corev1.VolumeMountStatus{{Name: "data", MountPath: "/data", ReadOnly: true, RecursiveReadOnly: ptr(corev1.RecursiveReadOnlyDisabled)}},
					User:                     &corev1.ContainerUser{Linux: &corev1.LinuxContainerUser{UID: 1000, GID: 1000, SupplementalGroups: []int64{1, 2}}},
					AllocatedResourcesStatus: []corev1.ResourceStatus{{Name: "claim:gpu", Resources: []corev1.ResourceHealth{{ResourceID: "gpu-0", Health: corev1.ResourceHealthStatusHealthy}}}},
					StopSignal:               ptr(corev1.SIGTERM),
				},
				{Name: "second", State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff", Message: "back-off"}}, RestartCount: 7, Image: "i", ImageID: ""},
			},
			EphemeralContainerStatuses: []corev1.ContainerStatus{{Name: "debug"}},
			QOSClass:                   corev1.PodQOSBurstable,
			Resize:                     corev1.PodResizeStatusInProgress,
			ResourceClaimStatuses:      []corev1.PodResourceClaimStatus{{Name: "gpu", ResourceClaimName: ptr("web-gpu-xyz")}},
		},
	}
}

func fullNode() *corev1.Node {
	return &corev1.Node{
		TypeMeta:   typeMeta("v1", "Node"),
		ObjectMeta: metav1.ObjectMeta{Name: "node-1", UID: "n1", Labels: map[string]string{"kubernetes.io/hostname": "node-1", "topology.kubernetes.io/zone": "a"}, Annotations: map[string]string{"node.alpha.kubernetes.io/ttl": "0"}, CreationTimestamp: at("2026-01-01T00:00:00Z")},
		Spec: corev1.NodeSpec{
			PodCIDR: "10.244.1.0/24", PodCIDRs: []string{"10.244.1.0/24", "fd00:1::/64"}, ProviderID: "kwok://node-1", Unschedulable: true,
			Taints: []corev1.Taint{{Key: "node.kubernetes.io/unschedulable", Effect: corev1.TaintEffectNoSchedule, TimeAdded: ptr(at("2026-11-29T06:00:00Z"))}, {Key: "k", Value: "v", Effect: corev1.TaintEffectNoExecute}},
		},
		Status: corev1.NodeStatus{
			Capacity:    quantities(),
			Allocatable: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("3900m"), corev1.ResourcePods: resource.MustParse("110"), corev1.ResourceEphemeralStorage: resource.MustParse("100Gi")},
			Phase:       corev1.NodeRunning,
			Conditions: []corev1.NodeCondition{
				{Type: corev1.NodeReady, Status: corev1.ConditionTrue, LastHeartbeatTime: at("2026-11-29T06:58:00Z"), LastTransitionTime: at("2026-11-28T00:00:00Z"), Reason: "KubeletReady", Message: "kubelet is posting ready status"},
				{Type: corev1.NodeMemoryPressure, Status: corev1.ConditionFalse},
			},
			Addresses:       []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: "10.0.0.5"}, {Type: corev1.NodeHostName, Address: "node-1"}},
			DaemonEndpoints: corev1.NodeDaemonEndpoints{KubeletEndpoint: corev1.DaemonEndpoint{Port: 10250}},
			NodeInfo:        corev1.NodeSystemInfo{MachineID: "m", KernelVersion: "6.1", OSImage: "Linux", ContainerRuntimeVersion: "containerd://2.0", KubeletVersion: "v1.34.10", OperatingSystem: "linux", Architecture: "amd64", Swap: &corev1.NodeSwapStatus{Capacity: ptr(int64(1 << 40))}},
			Images:          []corev1.ContainerImage{{Names: []string{"registry.example.com/app@sha256:abc", "registry.example.com/app:1.2.3"}, SizeBytes: 1 << 40}, {SizeBytes: 0}},
			VolumesInUse:    []corev1.UniqueVolumeName{"kubernetes.io/csi/x"},
			VolumesAttached: []corev1.AttachedVolume{{Name: "kubernetes.io/csi/x", DevicePath: "/dev/xvdb"}},
			Config:          &corev1.NodeConfigStatus{Error: "e"},
			RuntimeHandlers: []corev1.NodeRuntimeHandler{{Name: "runc", Features: &corev1.NodeRuntimeHandlerFeatures{RecursiveReadOnlyMounts: ptr(true), UserNamespaces: ptr(false)}}},
			Features:        &corev1.NodeFeatures{SupplementalGroupsPolicy: ptr(true)},
		},
	}
}

func fullClaim() *corev1.PersistentVolumeClaim {
	return &corev1.PersistentVolumeClaim{
		TypeMeta:   typeMeta("v1", "PersistentVolumeClaim"),
		ObjectMeta: objectMeta("data-web-x2k9p"),
		Spec: corev1.PersistentVolumeClaimSpec{
			AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce, corev1.ReadWriteOncePod},
			Selector:    &metav1.LabelSelector{MatchLabels: map[string]string{"tier": "db"}},
			Resources:   corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("10Gi")}, Limits: corev1.ResourceList{}},
			VolumeName:  "pv-1", StorageClassName: ptr(""), VolumeMode: ptr(corev1.PersistentVolumeFilesystem),
			DataSource:                &corev1.TypedLocalObjectReference{APIGroup: ptr("snapshot.storage.k8s.io"), Kind: "VolumeSnapshot", Name: "snap"},
			DataSourceRef:             &corev1.TypedObjectReference{APIGroup: nil, Kind: "PersistentVolumeClaim", Name: "src", Namespace: ptr("other")},
			VolumeAttributesClassName: ptr("gold"),
		},
		Status: corev1.PersistentVolumeClaimStatus{
			Phase:                            corev1.ClaimBound,
			AccessModes:                      []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
			Capacity:                         corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("10Gi")},
			Conditions:                       []corev1.PersistentVolumeClaimCondition{{Type: corev1.PersistentVolumeClaimResizing, Status: corev1.ConditionTrue, LastProbeTime: at("2026-11-29T06:58:29Z")}},
			AllocatedResources:               corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("20Gi")},
			AllocatedResourceStatuses:        map[corev1.ResourceName]corev1.ClaimResourceStatus{corev1.ResourceStorage: corev1.PersistentVolumeClaimControllerResizeInProgress},
			CurrentVolumeAttributesClassName: ptr("silver"),
			ModifyVolumeStatus:               &corev1.ModifyVolumeStatus{TargetVolumeAttributesClassName: "gold", Status: corev1.PersistentVolumeClaimModifyVolumeInProgress},
		},
	}
}

func fullRevision() *appsv1.ControllerRevision {
	return &appsv1.ControllerRevision{
		TypeMeta:   typeMeta("apps/v1", "ControllerRevision"),
		ObjectMeta: objectMeta("web-7d9f8b6c5d"),
		Data:       runtime.RawExtension{Raw: []byte(`{"spec":{"template":{"$patch":"replace","metadata":{"creationTimestamp":null,"labels":{"app":"web"}},"spec":{"containers":[{"name":"app","image":"nginx","resources":{}}],"big":12345678901234567890,"neg":-9007199254740993,"f":1.5e300,"u":"\u00e9\u2028<&>"}}}}`)},
		Revision:   9007199254740993,
	}
}

func fullNamespace() *corev1.Namespace {
	return &corev1.Namespace{
		TypeMeta:   typeMeta("v1", "Namespace"),
		ObjectMeta: metav1.ObjectMeta{Name: "team-a", Labels: map[string]string{"kubernetes.io/metadata.name": "team-a"}, DeletionTimestamp: ptr(at("2026-11-29T07:00:00Z"))},
		Spec:       corev1.NamespaceSpec{Finalizers: []corev1.FinalizerName{corev1.FinalizerKubernetes}},
		Status: corev1.NamespaceStatus{Phase: corev1.NamespaceTerminating, Conditions: []corev1.NamespaceCondition{
			{Type: corev1.NamespaceDeletionContentFailure, Status: corev1.ConditionFalse, LastTransitionTime: at("2026-11-29T07:00:01Z"), Reason: "ContentDeleted", Message: "All content successfully deleted"},
		}},
	}
}

func fullEvent() *corev1.Event {
	return &corev1.Event{
		TypeMeta:            typeMeta("v1", "Event"),
		ObjectMeta:          metav1.ObjectMeta{Name: "web.18a2b3c4d5e6f", Namespace: "default"},
		InvolvedObject:      corev1.ObjectReference{Kind: "CloneSet", Namespace: "default", Name: "web", UID: "u", APIVersion: "apps.kruise.io/v1alpha1", ResourceVersion: "1", FieldPath: "spec"},
		Reason:              "SuccessfulCreate",
		Message:             "succeed to create pod web-x2k9p",
		Source:              corev1.EventSource{Component: "cloneset-controller", Host: "h"},
		FirstTimestamp:      at("2026-11-29T06:58:29Z"),
		LastTimestamp:       at("2026-11-29T06:59:29Z"),
		Count:               2,
		Type:                corev1.EventTypeNormal,
		EventTime:           metav1.NewMicroTime(mustTime("2026-11-29T06:58:29.123456789Z")),
		Series:              &corev1.EventSeries{Count: 5, LastObservedTime: metav1.NewMicroTime(mustTime("1969-12-31T23:59:59.000001Z"))},
		Action:              "Create",
		Related:             &corev1.ObjectReference{Kind: "Pod", Name: "web-x2k9p"},
		ReportingController: "kruise-ts",
		ReportingInstance:   "kruise-ts-0",
	}
}

func notFoundStatus() *metav1.Status {
	return &metav1.Status{
		TypeMeta: typeMeta("v1", "Status"),
		Status:   metav1.StatusFailure, Message: `pods "x" not found`, Reason: metav1.StatusReasonNotFound,
		Details: &metav1.StatusDetails{Name: "x", Kind: "pods"}, Code: 404,
	}
}

func invalidStatus() *metav1.Status {
	return &metav1.Status{
		TypeMeta: typeMeta("v1", "Status"),
		ListMeta: metav1.ListMeta{ResourceVersion: "7"},
		Status:   metav1.StatusFailure, Message: "invalid", Reason: metav1.StatusReasonInvalid, Code: 422,
		Details: &metav1.StatusDetails{Name: "x", Group: "apps", Kind: "ControllerRevision", UID: "u", RetryAfterSeconds: 3, Causes: []metav1.StatusCause{
			{Type: metav1.CauseTypeFieldValueInvalid, Message: "bad", Field: "spec.x"}, {},
		}},
	}
}
